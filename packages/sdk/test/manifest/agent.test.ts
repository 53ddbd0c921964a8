import { describe, expect, it } from "vitest";
import {
  AGENT_LIMIT_DEFAULTS,
  type AgentDefinition,
  PLATFORM_PROPOSE_ARGUMENTS,
  parseAgentFile,
  parseAgentRuntime,
  skillRefProblem,
} from "../../src/manifest/index.js";
import { PLATFORM_FAILURE_KINDS } from "../../src/names/index.js";
import { fixture, issuesOf, onlyIssue } from "./helpers.js";

const file = "agents/a.yaml";
const parse = (text: string): AgentDefinition => parseAgentFile(text, { file }).definition;
/** An agent named `a` with `rest` added. */
const agent = (rest: string) => parse(`name: a\n${rest}`);
const problem = (rest: string) => onlyIssue(() => agent(rest));
const yamlList = (items: readonly string[]) => `[${items.join(", ")}]`;

describe("the acme-release-notes agent of spec/addresses.txt", () => {
  it("parses", () => {
    expect(parse(fixture("acme-release-notes.agent.yaml"))).toEqual({
      name: "acme-release-notes",
      description: "Writes release notes from the merged pull requests.",
      model: { use: "default" },
      instructions: "prompts/release-notes.md",
      tools: ["github/oz0_github.list_pull_requests", "oz.delegate"],
      delegation: { allow: ["github/oz0-github"] },
      tool_loading: "eager",
      limits: AGENT_LIMIT_DEFAULTS,
    });
  });

  it("refuses the example's uses: inside an agent file, saying it belongs in plugin.yaml", () => {
    expect(onlyIssue(() => parse(fixture("acme-release-notes.spec-snippet.yaml")))).toMatchObject({
      file,
      line: 12,
      column: 1,
      path: ["uses"],
      message: expect.stringContaining("uses: belongs in plugin.yaml"),
    });
  });
});

describe("unknown keys", () => {
  it("refuses an unknown key with the closest known key", () => {
    expect(problem("instruction: prompts/a.md\n")).toMatchObject({
      path: ["instruction"],
      line: 2,
      column: 1,
      message: "unknown key 'instruction'; did you mean 'instructions'?",
    });
  });

  it("reports each unknown key at its own line", () => {
    const issues = issuesOf(() => agent("tool: [x]\ntagz: [y]\n"));
    expect(issues.map((issue) => [issue.line, issue.message])).toEqual([
      [2, "unknown key 'tool'; did you mean 'tools'?"],
      [3, "unknown key 'tagz'; did you mean 'tags'?"],
    ]);
  });

  it("points a prompt: key to instructions:", () => {
    expect(problem("prompt: hi\n").message).toContain("name the system prompt file with instructions:");
  });
});

describe("name and description", () => {
  it("requires a name that follows the agent name rule", () => {
    expect(onlyIssue(() => parse("description: x\n"))).toMatchObject({
      path: ["name"],
      message: "required, but missing",
    });
    expect(onlyIssue(() => parse("name: Triage\n")).message).toContain("agent name 'Triage'");
  });

  it("takes a description", () => {
    expect(agent("description: Sorts tickets.\n").description).toBe("Sorts tickets.");
  });
});

describe("runtime", () => {
  it.each([
    [undefined, { kind: "oz0" }],
    ["pydantic-ai", { kind: "oz0" }],
    ["openai-agents", { kind: "openai-agents" }],
    ["harness:claude-code", { kind: "harness", name: "claude-code" }],
    ["remote:a2a", { kind: "remote", name: "a2a" }],
  ])("reads runtime %s", (runtime, expected) => {
    expect(parseAgentRuntime(runtime)).toEqual(expected);
    if (runtime !== undefined) expect(agent(`runtime: ${runtime}\n`).runtime).toBe(runtime);
  });

  it.each(["langgraph", "harness:", "remote:A2A", "harness"])("refuses runtime %s", (runtime) => {
    expect(problem(`runtime: '${runtime}'\n`)).toMatchObject({
      path: ["runtime"],
      message: expect.stringContaining("is not known"),
    });
  });
});

describe("instructions, input and output", () => {
  it("takes instructions and text input and output", () => {
    expect(agent("instructions: prompts/a.md\ninput: text\noutput: text\n")).toMatchObject({
      instructions: "prompts/a.md",
      input: "text",
      output: "text",
    });
  });

  it("takes input and output schema paths", () => {
    expect(agent("input_schema: schemas/in.json\noutput_schema: schemas/out.json\n")).toMatchObject({
      input_schema: "schemas/in.json",
      output_schema: "schemas/out.json",
    });
  });

  it("refuses an input or output other than text", () => {
    expect(problem("input: json\n").message).toContain("input may only be text");
    expect(problem("output: markdown\n").message).toContain("output may only be text");
  });

  it("refuses input with input_schema, and output with output_schema", () => {
    expect(problem("input: text\ninput_schema: s.json\n")).toMatchObject({ path: ["input_schema"], line: 3 });
    expect(problem("output: text\noutput_schema: s.json\n")).toMatchObject({
      path: ["output_schema"],
      line: 3,
    });
  });

  it("refuses an instructions path outside the plugin", () => {
    expect(problem("instructions: ../x.md\n").path).toEqual(["instructions"]);
  });
});

describe("tools", () => {
  it("takes this plugin's functions, another plugin's by address, and built-ins", () => {
    const tools = ["tickets.lookup", "github/oz0_github.get_file", "oz.fail", "github/oz0_github.*"];
    expect(agent(`tools: ${yamlList(tools)}\n`).tools).toEqual(tools);
  });

  it.each(["a/b/c.d", "tickets lookup", "tickets.lookup()"])("refuses the tool %s", (tool) => {
    expect(problem(`tools: ['${tool}']\n`).path).toEqual(["tools", 0]);
  });

  it.each(["oz.find_tools", "oz.call_tool"])("refuses %s, which tool_loading: lazy brings", (tool) => {
    expect(problem(`tool_loading: lazy\ntools: [${tool}]\n`)).toMatchObject({
      path: ["tools", 0],
      message: `${tool} comes with tool_loading: lazy; do not list it under tools`,
    });
  });
});

describe("failures", () => {
  const failure = (kind: string, description = "When it fails.") =>
    `{ kind: ${kind}, description: '${description}' }`;

  it("takes failures, with retryable, partial and person false when left out", () => {
    expect(
      agent(
        `failures:\n  - ${failure("not_found")}\n  - { kind: busy, description: Busy., retryable: true, person: true }\n`,
      ).failures,
    ).toEqual([
      { kind: "not_found", description: "When it fails.", retryable: false, partial: false, person: false },
      { kind: "busy", description: "Busy.", retryable: true, partial: false, person: true },
    ]);
  });

  it("requires a description", () => {
    expect(problem("failures: [{ kind: x }]\n")).toMatchObject({
      path: ["failures", 0, "description"],
      message: "required, but missing",
    });
    expect(problem("failures: [{ kind: x, description: '' }]\n").message).toContain("needs a description");
  });

  it("takes a description of 200 characters and refuses 201", () => {
    expect(agent(`failures: [${failure("x", "d".repeat(200))}]\n`).failures?.[0]?.description).toHaveLength(
      200,
    );
    expect(problem(`failures: [${failure("x", "d".repeat(201))}]\n`).message).toBe(
      "a failure's description may be at most 200 characters",
    );
  });

  it("takes a kind of 40 characters and refuses 41", () => {
    expect(agent(`failures: [${failure("k".repeat(40))}]\n`).failures).toHaveLength(1);
    expect(problem(`failures: [${failure("k".repeat(41))}]\n`).message).toContain("at most 40 are allowed");
  });

  it.each(["Not_Found", "not-found", "not found"])("refuses the kind '%s'", (kind) => {
    expect(problem(`failures: [${failure(`'${kind}'`)}]\n`).path).toEqual(["failures", 0, "kind"]);
  });

  it.each(PLATFORM_FAILURE_KINDS.map((kind) => [kind]))("refuses the platform's own kind %s", (kind) => {
    expect(problem(`failures: [${failure(kind)}]\n`).message).toContain(
      `'${kind}' is one of the platform's own failure kinds`,
    );
  });

  it("refuses a kind declared twice, at the second", () => {
    expect(problem(`failures:\n  - ${failure("x")}\n  - ${failure("x")}\n`)).toMatchObject({
      path: ["failures", 1, "kind"],
      line: 4,
      message: "failure kind 'x' is declared twice; each kind appears once",
    });
  });

  it("takes 32 failures and refuses 33", () => {
    const list = (count: number) =>
      `failures:\n${Array.from({ length: count }, (_, i) => `  - ${failure(`k${i}`)}\n`).join("")}`;
    expect(agent(list(32)).failures).toHaveLength(32);
    expect(problem(list(33))).toMatchObject({
      path: ["failures"],
      message: "at most 32 failures are allowed; found 33",
    });
  });

  it("refuses an unknown failure flag, suggesting the nearest", () => {
    expect(problem("failures: [{ kind: x, description: d, retriable: true }]\n").message).toBe(
      "unknown key 'retriable'; did you mean 'retryable'?",
    );
  });
});

describe("harness", () => {
  it("passes harness options through for a harness or remote agent", () => {
    const options = { mode: "plan", config: { model: "x" }, requires_approval: ["edit"] };
    expect(agent(`runtime: harness:claude-code\nharness: ${JSON.stringify(options)}\n`).harness).toEqual(
      options,
    );
    expect(
      agent("runtime: remote:a2a\nharness: { card: 'https://a.example/card', task_usd: 2 }\n").harness,
    ).toEqual({
      card: "https://a.example/card",
      task_usd: 2,
    });
  });

  it("refuses harness options on an agent of oz0's loop", () => {
    expect(problem("harness: { mode: plan }\n")).toMatchObject({
      path: ["harness"],
      line: 2,
      column: 1,
      message: expect.stringContaining("harness:<name> or remote:<name>"),
    });
  });

  it("refuses api_url on a remote agent, which only a node's operator sets", () => {
    expect(problem("runtime: remote:a2a\nharness: { api_url: 'https://x' }\n")).toMatchObject({
      path: ["harness", "api_url"],
      line: 3,
      column: 12,
    });
  });
});

describe("skills", () => {
  it("takes skill references of every form", () => {
    const skills = ["web/research", "web/*", "triage-guide"];
    expect(agent(`skills: ${yamlList(skills)}\n`).skills).toEqual(skills);
  });

  it("keeps [] as no skills and reads {} as left out", () => {
    expect(agent("skills: []\n").skills).toEqual([]);
    expect(agent("skills: {}\n").skills).toBeUndefined();
    expect("skills" in agent("skills: {}\n")).toBe(true);
  });

  it.each([
    ["a/b/c", "'a/b/c' is not a skill"],
    ["Web/research", "plugin name 'Web'"],
    ["web/Research", "skill name 'Research'"],
    ["*", "skill name '*'"],
  ])("refuses the skill reference %s", (ref, message) => {
    expect(skillRefProblem(ref)).toContain(message);
    expect(problem(`skills: ['${ref}']\n`).path).toEqual(["skills", 0]);
  });

  it("takes 64 skills and refuses 65", () => {
    const list = (count: number) => yamlList(Array.from({ length: count }, (_, i) => `s${i}`));
    expect(agent(`skills: ${list(64)}\n`).skills).toHaveLength(64);
    expect(problem(`skills: ${list(65)}\n`).message).toBe("at most 64 skills are allowed; found 65");
    expect(problem(`skills: { use: ${list(65)} }\n`).path).toEqual(["skills", "use"]);
  });

  const propose = (extra = "") =>
    `skills:\n  use: [triage-guide]\n  propose:\n    into: support-triage\n    apply: github/oz0_github.open_pull_request\n    repository: acme/support-plugins\n${extra}`;

  it("takes use and propose", () => {
    expect(
      agent(propose("    path: plugins/support\n    arguments: { labels: [skills] }\n    review: required\n"))
        .skills,
    ).toEqual({
      use: ["triage-guide"],
      propose: {
        into: "support-triage",
        apply: "github/oz0_github.open_pull_request",
        repository: "acme/support-plugins",
        path: "plugins/support",
        arguments: { labels: ["skills"] },
        review: "required",
      },
    });
  });

  it("takes a propose path to a folder of the repository, and refuses one that leaves it", () => {
    const path = (value: string) =>
      (agent(propose(`    path: ${value}\n`)).skills as { propose: { path: string } }).propose.path;
    expect(path("plugins/support/")).toBe("plugins/support/");
    expect(problem(propose("    path: ../elsewhere\n")).path).toEqual(["skills", "propose", "path"]);
  });

  it("refuses a propose without into, apply or repository", () => {
    const issues = issuesOf(() => agent("skills:\n  propose: {}\n"));
    expect(issues.map((issue) => issue.path.join("."))).toEqual([
      "skills.propose.into",
      "skills.propose.apply",
      "skills.propose.repository",
    ]);
  });

  it("refuses a repository that is not owner/name", () => {
    expect(problem(propose().replace("acme/support-plugins", "support-plugins")).message).toContain(
      "owner/name",
    );
  });

  it("refuses a review other than required", () => {
    expect(problem(propose("    review: optional\n")).message).toBe("propose.review may only be required");
  });

  it("takes 16 propose arguments and refuses 17", () => {
    const args = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${i}`).join(", ")} }`;
    expect(
      Object.keys(
        (agent(propose(`    arguments: ${args(16)}\n`)).skills as { propose: { arguments: object } }).propose
          .arguments,
      ),
    ).toHaveLength(16);
    expect(problem(propose(`    arguments: ${args(17)}\n`))).toMatchObject({
      path: ["skills", "propose", "arguments"],
      message: "at most 16 propose arguments are allowed; found 17",
    });
  });

  it.each(PLATFORM_PROPOSE_ARGUMENTS.map((name) => [name]))(
    "refuses the propose argument %s, which the platform sets",
    (name) => {
      expect(problem(propose(`    arguments: { ${name}: x }\n`))).toMatchObject({
        path: ["skills", "propose", "arguments", name],
        line: 8,
        column: 18,
      });
    },
  );

  it("refuses propose on a remote agent", () => {
    expect(problem(`runtime: remote:a2a\n${propose()}`).path).toEqual(["skills", "propose"]);
  });

  it("refuses propose beside changes", () => {
    expect(problem(`changes: { repository: acme/x }\n${propose()}`)).toMatchObject({
      path: ["changes"],
      line: 2,
    });
  });

  it("refuses skills that are neither a list nor a map", () => {
    expect(problem("skills: research\n").message).toBe('expected a list or a map, got the text "research"');
  });
});

describe("tool_loading", () => {
  it("is eager when left out, and takes lazy", () => {
    expect(agent("").tool_loading).toBe("eager");
    expect(agent("tool_loading: lazy\n").tool_loading).toBe("lazy");
  });

  it("refuses another value", () => {
    expect(problem("tool_loading: all\n").message).toBe("tool_loading must be eager or lazy, not 'all'");
  });
});

describe("tags", () => {
  const tags = (count: number) => yamlList(Array.from({ length: count }, (_, i) => `t${i}`));

  it("takes 16 tags and refuses 17", () => {
    expect(agent(`tags: ${tags(16)}\n`).tags).toHaveLength(16);
    expect(problem(`tags: ${tags(17)}\n`)).toMatchObject({
      path: ["tags"],
      message: "at most 16 tags are allowed; found 17",
    });
  });

  it("takes a tag of 63 characters and refuses 64", () => {
    expect(agent(`tags: [${"t".repeat(63)}]\n`).tags).toEqual(["t".repeat(63)]);
    expect(problem(`tags: [${"t".repeat(64)}]\n`)).toMatchObject({
      path: ["tags", 0],
      message: expect.stringContaining("at most 63"),
    });
  });

  it.each(["hr", "team.eu_west-1"])("takes the tag %s", (tag) => {
    expect(agent(`tags: [${tag}]\n`).tags).toEqual([tag]);
  });

  it.each(["HR", "a/b", "a b", "tag:hr"])("refuses the tag '%s'", (tag) => {
    expect(problem(`tags: ['${tag}']\n`).path).toEqual(["tags", 0]);
  });
});

describe("delegation", () => {
  it("takes the agents it may start and how far", () => {
    expect(
      agent("delegation: { allow: [github/oz0-github, review], max_depth: 2, max_children: 5 }\n").delegation,
    ).toEqual({
      allow: ["github/oz0-github", "review"],
      max_depth: 2,
      max_children: 5,
    });
  });

  it("requires allow", () => {
    expect(problem("delegation: { max_depth: 2 }\n").path).toEqual(["delegation", "allow"]);
  });

  it.each(["0", "-1", "1.5", "two"])("refuses max_depth %s", (value) => {
    expect(problem(`delegation: { allow: [], max_depth: ${value} }\n`).path).toEqual([
      "delegation",
      "max_depth",
    ]);
  });
});

describe("model and limits", () => {
  it("takes a model", () => {
    expect(agent("model: { use: fast }\n").model).toEqual({ use: "fast" });
  });

  it("takes a model's request options", () => {
    expect(
      agent(
        "model: { use: fast, options: { temperature: 0.2, stop: [END], headers: { X-Team: support } } }\n",
      ).model,
    ).toEqual({
      use: "fast",
      options: { temperature: 0.2, stop: ["END"], headers: { "X-Team": "support" } },
    });
  });

  it.each([
    [
      "temprature: 0.2",
      ["model", "options", "temprature"],
      "unknown key 'temprature'; did you mean 'temperature'?",
    ],
    ["temperature: 3", ["model", "options", "temperature"], "temperature is a number from 0 to 2"],
    ["max_tokens: 1.5", ["model", "options", "max_tokens"], "max_tokens is a whole number from 1 to 1000000"],
    [
      "stream: false",
      ["model", "options", "stream"],
      "unknown key 'stream': whether calls stream is the server's property",
    ],
    [
      "headers: { x-api-key: other }",
      ["model", "options", "headers", "x-api-key"],
      "header x-api-key is set by oz0",
    ],
  ])("an agent's model options { %s } are refused where they are written", (option, path, message) => {
    const found = problem(`model: { use: fast, options: { ${option} } }\n`);
    expect(found.path).toEqual(path);
    expect(found.message).toContain(message);
  });

  it("fills limits left out with the documented defaults", () => {
    expect(agent("").limits).toEqual({
      max_turns: 50,
      wall_seconds: 3600,
      max_tokens: 500_000,
      startup_tokens: 8_000,
    });
    expect(agent("limits: { max_turns: 5 }\n").limits).toEqual({ ...AGENT_LIMIT_DEFAULTS, max_turns: 5 });
  });

  it.each([
    ["max_turns: 0", "limits.max_turns must be above 0"],
    ["wall_seconds: 1.5", "limits.wall_seconds must be a whole number"],
    ["max_tokens: many", 'limits.max_tokens must be a whole number above 0, got the text "many"'],
  ])("refuses limits { %s }", (limit, message) => {
    expect(problem(`limits: { ${limit} }\n`).message).toBe(message);
  });

  it("refuses an unknown limit, suggesting the nearest", () => {
    expect(problem("limits: { max_turn: 5 }\n").message).toBe(
      "unknown key 'max_turn'; did you mean 'max_turns'?",
    );
  });
});

describe("changes", () => {
  it("carries changes as written", () => {
    expect(agent("changes: { repository: acme/x }\n").changes).toEqual({ repository: "acme/x" });
  });
});
