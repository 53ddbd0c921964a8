import { describe, expect, it } from "vitest";
import {
  AGENT_LIMIT_DEFAULTS,
  CAPABILITY_KINDS,
  cronProblem,
  normalizeVersionRange,
  type PluginManifest,
  parsePluginManifest,
  toolEntryCovered,
} from "../../src/manifest/index.js";
import { errorOf, fixture, issuesOf, onlyIssue } from "./helpers.js";

const file = "plugin.yaml";
const HEAD = "name: support-triage\nversion: 1.2.0\n";
const parse = (text: string): PluginManifest => parsePluginManifest(text, { file });
/** Parses the manifest head plus `rest`. */
const withHead = (rest: string) => parse(HEAD + rest);
/** The one problem of the manifest head plus `rest`. */
const problem = (rest: string) => onlyIssue(() => withHead(rest));

describe("the plugin.yaml of DESIGN.md", () => {
  it("parses, with its version range normalised and its agent's defaults filled in", () => {
    const manifest = parse(fixture("design-plugin.yaml"));
    expect(manifest).toMatchObject({
      name: "support-triage",
      version: "1.2.0",
      description: "Triage incoming support tickets.",
      main: "index.js",
      capabilities: ["tool"],
      model: { use: "default" },
      tools: [
        { id: "tickets", description: "Ticket store." },
        { id: "fs", mcp: { command: "npx", args: ["-y", "some-mcp-server"], env: {} } },
      ],
      flows: [],
      routines: [{ name: "nightly", schedule: "0 3 * * *", run: "triage", input: "sweep" }],
      uses: {
        github: { version: ">=1.1 <2", tools: ["oz0_github.list_pull_requests"], agents: ["oz0-github"] },
      },
    });
    expect(manifest.agents?.[0]).toEqual({
      name: "triage",
      description: "Sorts a ticket into a queue.",
      instructions: "prompts/triage.md",
      tools: ["tickets.lookup", "github/oz0_github.get_pull_request", "oz.delegate"],
      input: "text",
      output: "text",
      tool_loading: "eager",
      limits: AGENT_LIMIT_DEFAULTS,
    });
  });

  it("parses the acme-release-notes plugin's uses: of spec/addresses.txt", () => {
    expect(parse(fixture("acme-release-notes.plugin.yaml")).uses).toEqual({
      github: { version: ">=1.1 <2", tools: ["oz0_github.list_pull_requests"], agents: ["oz0-github"] },
    });
  });
});

describe("errors", () => {
  it("lists every problem as file:line:col in one INVALID_MANIFEST error", () => {
    const error = errorOf("INVALID_MANIFEST", () => parse("name: Bad\nversion: v1\ncapabilites: [tool]\n"));
    expect(error.message).toBe(
      [
        "plugin.yaml: 3 problems; fix them and load again:",
        "plugin.yaml:1:7: name: plugin name 'Bad' must be lowercase letters, digits and single dashes, not starting or ending with a dash",
        "plugin.yaml:2:10: version: 'v1' is not a semantic version; write MAJOR.MINOR.PATCH, such as 1.2.0",
        "plugin.yaml:3:1: capabilites: unknown key 'capabilites'; did you mean 'capabilities'?",
      ].join("\n"),
    );
    expect(error.data?.issues).toHaveLength(3);
  });

  it("refuses a document that is not a map", () => {
    expect(onlyIssue(() => parse("- name: x\n")).message).toMatch(
      /^expected a map of keys \(schema, name, version/,
    );
  });

  it("names a missing required key at its parent", () => {
    expect(onlyIssue(() => parse("name: p\n"))).toMatchObject({
      path: ["version"],
      line: 1,
      column: 1,
      message: "required, but missing",
    });
  });

  it("lists the allowed keys for an unknown key with no close match", () => {
    expect(problem("wibble: 1\n").message).toBe(
      "unknown key 'wibble'; allowed keys: schema, name, version, description, main, capabilities, labels, model, tools, agents, flows, routines, uses, verified",
    );
  });

  it("says where agent fields go when one is written at the top", () => {
    expect(problem("instructions: prompts/x.md\n").message).toContain("agent fields go under agents:");
  });
});

describe("name", () => {
  it("takes a plugin name", () => {
    expect(parse("name: a1-b2\nversion: 1.0.0\n").name).toBe("a1-b2");
  });

  it.each(["Support", "support_triage", "-support", "a".repeat(64)])("refuses the plugin name %s", (name) => {
    expect(onlyIssue(() => parse(`name: ${name}\nversion: 1.0.0\n`)).path).toEqual(["name"]);
  });
});

describe("version", () => {
  it.each(["0.1.0", "1.2.0-beta.1", "2.0.0+build.7"])("takes the semantic version %s", (version) => {
    expect(parse(`name: p\nversion: ${version}\n`).version).toBe(version);
  });

  it.each(["v1.2.0", "1.2", "'1'", "latest"])("refuses the version %s", (version) => {
    expect(onlyIssue(() => parse(`name: p\nversion: ${version}\n`))).toMatchObject({
      path: ["version"],
      line: 2,
      column: 10,
    });
  });
});

describe("description, main and verified", () => {
  it("takes a description and a code entry path", () => {
    expect(withHead("description: Does things.\nmain: dist/index.mjs\nverified: true\n")).toMatchObject({
      description: "Does things.",
      main: "dist/index.mjs",
      verified: true,
    });
  });

  it("refuses a description that is not text", () => {
    expect(problem("description: [a]\n").message).toBe("expected text, got a list");
  });

  it.each([
    ["../outside.js", "inside the plugin folder"],
    ["/abs/index.js", "relative to the plugin folder"],
    ["C:/index.js", "relative to the plugin folder"],
    ["dist\\\\index.js", "'/' between folders"],
    ["dist/", "name a file"],
    ["''", "must not be empty"],
    ['"in\\x01dex.js"', "control characters"],
  ])("refuses the code entry path %s", (path, why) => {
    expect(problem(`main: ${path}\n`).message).toContain(why);
  });

  it("refuses verified that is not true or false", () => {
    expect(problem("verified: yes\n").message).toBe('expected true or false, got the text "yes"');
  });
});

describe("schema", () => {
  it("carries the manifest format version", () => {
    expect(withHead('schema: "1.0"\n').schema).toBe("1.0");
    expect(withHead("schema: '0.9'\n").schema).toBe("0.9");
  });

  it("asks for quotes when YAML read the schema version as a number", () => {
    expect(problem("schema: 1.0\n").message).toContain('in quotes, such as schema: "1.0"');
  });

  it("refuses a schema version that is not MAJOR.MINOR", () => {
    expect(problem('schema: "one"\n').path).toEqual(["schema"]);
  });
});

describe("capabilities", () => {
  it("takes every capability kind", () => {
    expect(withHead(`capabilities: [${CAPABILITY_KINDS.join(", ")}]\n`).capabilities).toEqual([
      ...CAPABILITY_KINDS,
    ]);
  });

  it("refuses an unknown capability, suggesting the nearest", () => {
    expect(problem("capabilities: [tool, memmory]\n")).toMatchObject({
      path: ["capabilities", 1],
      line: 3,
      column: 22,
      message: expect.stringContaining("not 'memmory'; did you mean 'memory'?"),
    });
  });

  it("refuses a capability listed twice", () => {
    expect(problem("capabilities: [tool, hook, tool]\n")).toMatchObject({
      path: ["capabilities", 2],
      message: "capability 'tool' is declared twice",
    });
  });
});

describe("model", () => {
  it("takes a model alias and a test script", () => {
    expect(withHead("model: { use: test, script: scripts/x.yaml }\n").model).toEqual({
      use: "test",
      script: "scripts/x.yaml",
    });
    expect(withHead("model: { use: openai:gpt-4.1 }\n").model).toEqual({ use: "openai:gpt-4.1" });
  });

  it("refuses a model without use", () => {
    expect(problem("model: { script: s.yaml }\n")).toMatchObject({
      path: ["model", "use"],
      message: "required, but missing",
    });
  });

  it("refuses a misspelt model key, suggesting the nearest", () => {
    expect(problem("model: { use: test, scrpit: s.yaml }\n").message).toBe(
      "unknown key 'scrpit'; did you mean 'script'?",
    );
  });

  it("refuses a script path that leaves the plugin", () => {
    expect(problem("model: { use: test, script: ../s.yaml }\n").path).toEqual(["model", "script"]);
  });
});

describe("tools", () => {
  it("takes a tool ID with an MCP server reached by URL", () => {
    const tools = withHead(
      "tools:\n  - id: remote\n    mcp: { url: 'https://mcp.example.com/sse', headers: { Authorization: x } }\n",
    ).tools;
    expect(tools).toEqual([
      { id: "remote", mcp: { url: "https://mcp.example.com/sse", headers: { Authorization: "x" } } },
    ]);
  });

  it.each([
    ["Tickets", "tool name 'Tickets'"],
    ["a__b", "tool name 'a__b'"],
    ["a.b", "tool name 'a.b'"],
  ])("refuses the tool ID %s", (id, message) => {
    expect(problem(`tools: [{ id: ${id} }]\n`).message).toContain(message);
  });

  it("refuses the built-in tool ID oz", () => {
    expect(problem("tools: [{ id: oz }]\n").message).toContain("belongs to oz0's built-ins");
  });

  it("refuses a tool ID declared twice", () => {
    expect(problem("tools: [{ id: t }, { id: t }]\n")).toMatchObject({
      path: ["tools", 1, "id"],
      message: "tool ID 't' is declared twice",
    });
  });

  it.each([
    ["{ command: npx, url: 'http://x' }", [], "either command:"],
    ["{ args: [x] }", [], "either command:"],
    ["{ url: 'http://x', args: [a] }", ["args"], "args: goes with command:"],
    ["{ url: 'http://x', env: {} }", ["env"], "env: goes with command:"],
    ["{ command: npx, headers: {} }", ["headers"], "headers: goes with url:"],
    ["{ url: 'ftp://x' }", ["url"], "http:// or https://"],
    ["{ command: npx, env: { DEBUG: 1 } }", ["env", "DEBUG"], "quote the number 1"],
    ["{ command: npx, cwd: /tmp }", ["cwd"], "unknown key 'cwd'"],
    [
      "{ command: npx, oauth: { grant: client_credentials, client_id: c } }",
      ["oauth"],
      "oauth: goes with url:",
    ],
  ])("refuses the MCP server %s", (mcp, path, message) => {
    const issue = problem(`tools:\n  - id: t\n    mcp: ${mcp}\n`);
    expect(issue.path).toEqual(["tools", 0, "mcp", ...path]);
    expect(issue.message).toContain(message);
  });

  it("takes an oauth: grant that needs no person: client credentials by private key, and cross-app access", () => {
    const tools = withHead(
      [
        "tools:",
        "  - id: billing",
        "    mcp:",
        "      url: https://mcp.billing.example/mcp",
        "      oauth: { grant: client_credentials, client_id: oz0, client_auth: private_key_jwt, signing_alg: ES256, issuer: 'https://auth.billing.example', scope: read }",
        "  - id: wiki",
        "    mcp:",
        "      url: https://mcp.wiki.example/mcp",
        "      oauth: { grant: cross_app_access, client_id: oz0, idp: { issuer: 'https://idp.example.com', client_id: oz0-idp } }",
        "",
      ].join("\n"),
    ).tools;
    expect(tools?.map((tool) => tool.mcp?.oauth?.grant)).toEqual(["client_credentials", "cross_app_access"]);
  });

  it.each([
    [
      "{ grant: password }",
      ["grant"],
      "oauth.grant must be one of authorization_code, client_credentials, cross_app_access, not 'password'",
    ],
    ["{ grant: client_credentials }", ["grant"], "grant: client_credentials needs client_id"],
    [
      "{ grant: client_credentials, client_id: c, client_auth: tls_client_auth }",
      ["client_auth"],
      "oauth.client_auth must be one of",
    ],
    [
      "{ grant: client_credentials, client_id: c, client_auth: private_key_jwt }",
      ["client_auth"],
      "client_auth: private_key_jwt needs signing_alg",
    ],
    [
      "{ grant: client_credentials, client_id: c, client_auth: private_key_jwt, signing_alg: HS256 }",
      ["signing_alg"],
      "oauth.signing_alg must be one of",
    ],
    [
      "{ grant: client_credentials, client_id: c, signing_alg: ES256 }",
      ["signing_alg"],
      "oauth.signing_alg goes with client_auth: private_key_jwt",
    ],
    [
      "{ grant: client_credentials, client_id: c, idp: { issuer: 'https://idp', client_id: i } }",
      ["idp"],
      "oauth.idp goes with grant: cross_app_access",
    ],
    ["{ grant: cross_app_access, client_id: c }", ["grant"], "grant: cross_app_access needs idp:"],
    [
      "{ grant: cross_app_access, client_id: c, idp: { client_id: i } }",
      ["idp"],
      "either issuer: (its token endpoint is discovered) or token_endpoint:",
    ],
    [
      "{ grant: cross_app_access, client_id: c, idp: { issuer: 'https://a', token_endpoint: 'https://a/t', client_id: i } }",
      ["idp"],
      "not both or neither",
    ],
    [
      "{ grant: authorization_code, client_id: c }",
      ["client_id"],
      "oauth.client_id goes with grant: client_credentials or cross_app_access",
    ],
    [
      "{ grant: client_credentials, client_id: c, client_secret: s }",
      ["client_secret"],
      "unknown key 'client_secret'",
    ],
  ])("refuses the oauth: %s", (oauth, path, message) => {
    const issue = problem(`tools:\n  - id: t\n    mcp: { url: 'https://x.example/mcp', oauth: ${oauth} }\n`);
    expect(issue.path).toEqual(["tools", 0, "mcp", "oauth", ...path]);
    expect(issue.message).toContain(message);
  });
});

describe("agents", () => {
  it("refuses two inline agents of one name", () => {
    expect(problem("agents: [{ name: a }, { name: a }]\n")).toMatchObject({
      path: ["agents", 1, "name"],
      message: "agent 'a' is declared twice",
    });
  });

  it("places an inline agent's problem at its line", () => {
    expect(problem("agents:\n  - name: a\n    tool_loading: lazzy\n")).toMatchObject({
      path: ["agents", 0, "tool_loading"],
      line: 5,
      column: 19,
      message: "tool_loading must be eager or lazy, not 'lazzy'; did you mean 'lazy'?",
    });
  });
});

describe("routines", () => {
  it("takes a scheduled routine and an event routine", () => {
    const routines = withHead(
      "routines:\n  - { name: nightly, schedule: '@daily', run: triage }\n  - { name: on-pr, event: webhook, run: github/oz0-github, input: { pr: 1 } }\n  - { name: after, event: 'job.ended:github/oz0-github', run: triage }\n",
    ).routines;
    expect(routines).toEqual([
      { name: "nightly", schedule: "@daily", run: "triage" },
      { name: "on-pr", event: "webhook", run: "github/oz0-github", input: { pr: 1 } },
      { name: "after", event: "job.ended:github/oz0-github", run: "triage" },
    ]);
  });

  it("takes a channel event, channel:<plugin>/<channel>, and refuses one that names no channel", () => {
    expect(withHead("routines: [{ name: r, event: 'channel:channels/slack', run: a }]\n").routines).toEqual([
      { name: "r", event: "channel:channels/slack", run: "a" },
    ]);
    expect(problem("routines: [{ name: r, event: 'channel:slack', run: a }]\n").message).toContain(
      "names no channel after channel:; write channel:<plugin>/<channel>",
    );
  });

  it("refuses a routine with both schedule and event, or neither", () => {
    expect(
      problem("routines: [{ name: r, schedule: '@daily', event: webhook, run: a }]\n").message,
    ).toContain("either schedule:");
    expect(problem("routines: [{ name: r, run: a }]\n").message).toContain("either schedule:");
  });

  it("refuses a routine without run, or with a bad name", () => {
    expect(problem("routines: [{ name: r, schedule: '@daily' }]\n").path).toEqual(["routines", 0, "run"]);
    expect(problem("routines: [{ name: R, schedule: '@daily', run: a }]\n").path).toEqual([
      "routines",
      0,
      "name",
    ]);
  });

  it("refuses two routines of one name", () => {
    expect(
      problem("routines: [{ name: r, event: webhook, run: a }, { name: r, event: webhook, run: a }]\n").path,
    ).toEqual(["routines", 1, "name"]);
  });

  it.each(["0 3 * * *", "*/15 9-17 * * 1-5", "0 0 1 JAN,JUL MON", "30 0 3 * * *", "@hourly", "0 12 L * ?"])(
    "takes the schedule %s",
    (schedule) => {
      expect(cronProblem(schedule)).toBeUndefined();
    },
  );

  it.each([
    ["0 3 * *", "4 fields"],
    ["61 3 * * *", "minute field"],
    ["0 24 * * *", "hour field"],
    ["0 3 * * * * *", "7 fields"],
    ["0 3 * * $", "not cron"],
  ])("refuses the schedule %s", (schedule, why) => {
    expect(cronProblem(schedule)).toContain(why);
    expect(problem(`routines: [{ name: r, schedule: '${schedule}', run: a }]\n`).path).toEqual([
      "routines",
      0,
      "schedule",
    ]);
  });
});

describe("a routine's identity, tools, limits and policies", () => {
  it("takes an identity, tools, limits, a time zone and the missed and overlap policies", () => {
    const [routine] =
      withHead(`routines:
  - name: nightly
    schedule: "0 0 3 * * *"
    timezone: Europe/Paris
    missed: catch_up_last
    overlap: queue
    run: triage
    identity: { role: operator, agents: [triage] }
    tools: [tickets.lookup]
    limits: { max_turns: 5, max_tokens: 1000, wall_seconds: 60, max_cost_usd: 0.5 }
`).routines ?? [];
    expect(routine).toMatchObject({
      timezone: "Europe/Paris",
      missed: "catch_up_last",
      overlap: "queue",
      identity: { role: "operator", agents: ["triage"] },
      tools: ["tickets.lookup"],
      limits: { max_turns: 5, max_tokens: 1000, wall_seconds: 60, max_cost_usd: 0.5 },
    });
  });

  it("refuses an event oz0 never fires, instead of installing a routine that never runs", () => {
    const found = problem("routines: [{ name: r, event: github/pull_request.opened, run: a }]\n");
    expect(found.path).toEqual(["routines", 0, "event"]);
    expect(found.message).toContain("oz0 fires no event 'github/pull_request.opened'");
  });

  it("refuses a time zone that is none", () => {
    const found = problem("routines: [{ name: r, schedule: '@daily', timezone: Mars/Olympus, run: a }]\n");
    expect(found.path).toEqual(["routines", 0, "timezone"]);
    expect(found.message).toContain("is not a time zone");
  });

  it("refuses timezone and missed on an event routine", () => {
    expect(problem("routines: [{ name: r, event: webhook, missed: skip, run: a }]\n").message).toContain(
      "missed: goes with schedule:",
    );
  });

  it("refuses an unknown overlap policy and a viewer identity", () => {
    expect(problem("routines: [{ name: r, event: webhook, overlap: never, run: a }]\n").message).toContain(
      "overlap must be one of skip, queue, allow",
    );
    expect(
      problem("routines: [{ name: r, event: webhook, identity: { role: viewer }, run: a }]\n").path,
    ).toEqual(["routines", 0, "identity", "role"]);
  });

  it("covers a routine's tools entry by the agent's same function or its tool's wildcard", () => {
    expect(toolEntryCovered("tickets.lookup", "p", ["tickets.*"], "p")).toBe(true);
    expect(toolEntryCovered("p/tickets.lookup", "q", ["tickets.lookup"], "p")).toBe(true);
    expect(toolEntryCovered("tickets.close", "p", ["tickets.lookup"], "p")).toBe(false);
    expect(toolEntryCovered("tickets.lookup", "q", ["tickets.lookup"], "p")).toBe(false);
    expect(toolEntryCovered("oz.fail", "q", ["oz.fail"], "p")).toBe(true);
  });
});

describe("uses", () => {
  it.each([
    [">=1.1, <2", ">=1.1 <2"],
    ["^1.2", "^1.2"],
    [">=1, <2 || >=3", ">=1 <2 || >=3"],
  ])("normalises the version range %s to %s", (range, normalised) => {
    expect(normalizeVersionRange(range)).toBe(normalised);
    expect(withHead(`uses:\n  github: { version: "${range}" }\n`).uses?.github?.version).toBe(normalised);
  });

  it.each(["not a range", "", ",,"])("refuses the version range '%s'", (range) => {
    expect(problem(`uses:\n  github: { version: "${range}" }\n`).path).toEqual(["uses", "github", "version"]);
  });

  it("takes skills by name or *", () => {
    expect(withHead("uses:\n  web: { skills: [research, '*'] }\n").uses?.web?.skills).toEqual([
      "research",
      "*",
    ]);
  });

  it("refuses a plugin key that breaks the plugin name rule, at the key", () => {
    expect(problem("uses:\n  Git_Hub: {}\n")).toMatchObject({
      path: ["uses", "Git_Hub"],
      line: 4,
      column: 3,
    });
  });

  it("refuses a tool under uses that names its plugin", () => {
    expect(problem("uses:\n  github: { tools: [github/oz0_github.get_file] }\n").message).toContain(
      "its parts are bare",
    );
  });

  it("refuses a plugin that lists itself under uses", () => {
    expect(problem("uses:\n  support-triage: {}\n").message).toContain("does not list itself");
  });

  it("refuses an unknown key under a used plugin", () => {
    expect(problem("uses:\n  github: { function: [x] }\n").path).toEqual(["uses", "github", "function"]);
  });
});

describe("flows beside agents", () => {
  it("refuses a flow named like an agent of the plugin", () => {
    expect(
      problem("agents: [{ name: a }]\nflows: [{ name: a, steps: [{ id: s, agent: a }] }]\n"),
    ).toMatchObject({
      path: ["flows", 0, "name"],
      message: expect.stringContaining("share one set of names"),
    });
  });

  it("refuses two flows of one name", () => {
    const issues = issuesOf(() =>
      withHead(
        "flows: [{ name: f, steps: [{ id: s, agent: a }] }, { name: f, steps: [{ id: s, agent: a }] }]\n",
      ),
    );
    expect(issues.map((issue) => issue.message)).toEqual(["flow 'f' is declared twice"]);
  });
});
