// Lint and install decide alike: each case is one plugin folder, linted against a tenant and
// installed into it, and both must take the same decision, with install's refusal saying what
// lint says (lint's message, for the problem the case is about, is in install's message, and
// every problem install lists is one lint reports as an error).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { type LintCode, lintPlugin, tenantContextFromCatalog } from "../../src/lint/index.js";
import { REMOTE_AGENT_OPTIONS } from "../../src/runtimes/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { plugin } from "../catalog/helpers.js";

const CODE = `// A tool with one function, for the agreement table.
export default {
  setup(host) {
    host.addTool({
      name: "notes",
      description: "Notes.",
      build: () => ({
        functions: [
          {
            name: "lookup",
            description: "Looks a note up.",
            input: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
            run: async (args) => ({ id: args.id }),
          },
        ],
      }),
    });
  },
};
`;

const HOOKED = CODE.replace(
  "  },\n};\n",
  `    host.addHook({ name: "audit", build: () => ({ pre_tool_cal: () => undefined }) });
  },
};
`,
);

const MANIFEST = `name: agree-case
version: 1.0.0
description: A plugin for the lint and install agreement table.
schema: "1.0"
main: index.js
capabilities: [tool]
tools:
  - id: notes
agents:
  - name: helper
    description: Helps.
    instructions: prompts/helper.md
    tools: [notes.lookup, oz.fail]
    failures:
      - kind: no_answer
        description: Found no answer.
    input: text
    output_schema: schemas/answer.json
    model: { use: test, script: scripts/helper.yaml }
`;

const SCHEMA = `{
  "type": "object",
  "properties": { "answer": { "type": "string" } },
  "required": ["answer"],
  "x-oz0-order": ["answer"]
}
`;

const SCRIPT = `turns:
  - call: { function: notes__lookup, args: { id: 7 } }
  - output: { answer: "note 7" }
`;

type Files = Record<string, string>;

const BASE: Files = {
  "plugin.yaml": MANIFEST,
  "index.js": CODE,
  "prompts/helper.md": "You help. Answer briefly.\n",
  "schemas/answer.json": SCHEMA,
  "scripts/helper.yaml": SCRIPT,
};

interface Case {
  /** The rule, as a sentence. */
  readonly rule: string;
  readonly change: (files: Files) => Files;
  /** Plugins the tenant has before; none when left out. */
  readonly tenant?: readonly string[];
  /** The lint code the case is about; none for a plugin both accept. */
  readonly code?: LintCode;
}

/** A value of each remote agent option, as YAML: all but requires_approval ([edit], not in tools) and workspace (not an environment id) are ones remote:anthropic takes. */
const REMOTE_OPTION_VALUES: Record<(typeof REMOTE_AGENT_OPTIONS)[number], string> = {
  tools: "[read]",
  requires_approval: "[edit]",
  max_budget_usd: "5",
  session_hour_usd: "0.5",
  workspace: "/srv/work",
  keep_session: "true",
};

/** The options whose REMOTE_OPTION_VALUES remote:anthropic refuses. */
const ANTHROPIC_REFUSES = new Set(["requires_approval", "workspace"]);

const edit = (file: string, from: string, to: string) => (files: Files) => {
  const text = files[file] ?? "";
  expect(text, `${file} has ${from}`).toContain(from);
  return { ...files, [file]: text.replace(from, to) };
};

const CASES: readonly Case[] = [
  { rule: "a plugin lint passes installs", change: (files) => files },
  {
    rule: "a schema file that is not JSON is refused by both",
    change: edit("schemas/answer.json", '"type": "object",', '"type": "object"'),
    code: "OZ-E002",
  },
  {
    rule: "x-oz0-order naming a property the schema lacks is refused by both",
    change: edit("schemas/answer.json", '["answer"]\n}', '["answer", "verdict"]\n}'),
    code: "OZ-S006",
  },
  {
    rule: 'an agent without input under schema: "1.0" is refused by both',
    change: edit("plugin.yaml", "    input: text\n", ""),
    code: "OZ-S003",
  },
  {
    rule: "a typo in a function of the plugin's own tool is refused by both",
    change: edit("plugin.yaml", "[notes.lookup, oz.fail]", "[notes.lokup, oz.fail]"),
    code: "OZ-S026",
  },
  {
    rule: "a function of a tool no plugin of the tenant has is refused by both",
    change: edit("plugin.yaml", "[notes.lookup, oz.fail]", "[notes.lookup, nothing.here, oz.fail]"),
    tenant: ["github"],
    code: "OZ-S026",
  },
  {
    rule: "a uses: entry the tenant does not satisfy is refused by both",
    change: (files) => ({
      ...files,
      "plugin.yaml": `${files["plugin.yaml"]}uses:\n  github:\n    version: ">=3"\n    tools: [oz0_github.get_file]\n`,
    }),
    tenant: ["github"],
    code: "OZ-S026",
  },
  {
    rule: "a name another plugin of the tenant has is refused by both",
    change: edit("plugin.yaml", "  - name: helper", "  - name: triage"),
    tenant: ["support-triage"],
    code: "OZ-S027",
  },
  {
    rule: 'an invalid JSON Schema ("type": "strin") is refused by both, at its line',
    change: edit("schemas/answer.json", '"answer": { "type": "string" }', '"answer": { "type": "strin" }'),
    code: "OZ-E005",
  },
  {
    rule: "a JSON Schema keyword ajv does not know (strict mode) is refused by both",
    change: edit("schemas/answer.json", '"type": "string" }', '"type": "string", "maxLenght": 3 }'),
    code: "OZ-E005",
  },
  {
    rule: "a built-in oz0 does not have (oz.fial) is refused by both",
    change: edit("plugin.yaml", "[notes.lookup, oz.fail]", "[notes.lookup, oz.fial]"),
    code: "OZ-S024",
  },
  {
    rule: "a test-model script turn that does not read is refused by both",
    change: edit("scripts/helper.yaml", '  - output: { answer: "note 7" }', '  - say: "note 7"'),
    code: "OZ-S025",
  },
  {
    rule: "a test-model script calling a function the agent lacks is refused by both",
    change: edit("scripts/helper.yaml", "notes__lookup", "notes__delete"),
    code: "OZ-S025",
  },
  {
    rule: "a test-model script failing with a kind the agent does not declare is refused by both",
    change: edit(
      "scripts/helper.yaml",
      '  - output: { answer: "note 7" }',
      "  - call: { function: oz__fail, args: { kind: gave_up, message: No luck. } }",
    ),
    code: "OZ-S025",
  },
  {
    rule: "a pattern of a whole plugin in tools: is refused by both",
    change: edit("plugin.yaml", "[notes.lookup, oz.fail]", "[notes.lookup, github/*, oz.fail]"),
    tenant: ["github"],
    code: "OZ-E001",
  },
  {
    rule: "an agent on a runtime this oz0 does not have (remote:nowhere) is refused by both",
    change: edit(
      "plugin.yaml",
      "    instructions: prompts/helper.md\n",
      "    runtime: remote:nowhere\n    instructions: prompts/helper.md\n",
    ),
    code: "OZ-S023",
  },
  {
    rule: "an openai-agents agent on a model no OpenAI format serves is refused by both",
    change: edit(
      "plugin.yaml",
      "    instructions: prompts/helper.md\n",
      "    runtime: openai-agents\n    instructions: prompts/helper.md\n",
    ),
    code: "OZ-S031",
  },
  {
    rule: "an agent on a harness is accepted by both (the harness's plugin is looked up when its job runs)",
    change: (files) =>
      edit(
        "plugin.yaml",
        "    instructions: prompts/helper.md\n",
        "    runtime: harness:claude-code\n    instructions: prompts/helper.md\n",
      )(edit("plugin.yaml", "    model: { use: test, script: scripts/helper.yaml }\n", "")(files)),
  },
  {
    rule: "a remote agent is refused by both",
    change: edit(
      "plugin.yaml",
      "    instructions: prompts/helper.md\n",
      "    runtime: remote:other\n    instructions: prompts/helper.md\n",
    ),
    code: "OZ-S023",
  },
  {
    rule: "an outside A2A agent's option it does not take is refused by both",
    change: edit(
      "plugin.yaml",
      "    instructions: prompts/helper.md\n",
      "    runtime: remote:a2a\n    harness: { auth: basic }\n    instructions: prompts/helper.md\n",
    ),
    code: "OZ-S036",
  },
  {
    rule: "a hook spec building a handler for no hook point is refused by both, with the closest one",
    change: (files) =>
      edit(
        "plugin.yaml",
        "capabilities: [tool]",
        "capabilities: [tool, hook]",
      )({ ...files, "index.js": HOOKED }),
    code: "OZ-E004",
  },
  {
    rule: "a kind: Tool manifest whose export is not a function is refused by both (the loader's refusal, when no rule has one)",
    change: (files) => ({
      ...files,
      "tools/clock.tool.yaml":
        "kind: Tool\nname: clock\ndescription: Tells the time.\nspec:\n  entry: clock.js\n  function: now\n  export: nowe\n  parameters: { type: object }\n",
      "clock.js": "export function now() { return 0; }\n",
    }),
    code: "OZ-E004",
  },
  {
    rule: "an MCP tool's oauth: grant that needs no person, written whole, passes both",
    change: edit(
      "plugin.yaml",
      "  - id: notes\n",
      "  - id: notes\n  - id: billing\n    mcp: { url: 'https://mcp.example.com/mcp', oauth: { grant: client_credentials, client_id: oz0, client_auth: private_key_jwt, signing_alg: ES256 } }\n",
    ),
  },
  {
    rule: "an MCP tool's oauth: private_key_jwt without signing_alg is refused by both",
    change: edit(
      "plugin.yaml",
      "  - id: notes\n",
      "  - id: notes\n  - id: billing\n    mcp: { url: 'https://mcp.example.com/mcp', oauth: { grant: client_credentials, client_id: oz0, client_auth: private_key_jwt } }\n",
    ),
    code: "OZ-E001",
  },
  {
    rule: "an MCP tool's oauth: cross_app_access without idp: is refused by both",
    change: edit(
      "plugin.yaml",
      "  - id: notes\n",
      "  - id: notes\n  - id: wiki\n    mcp: { url: 'https://mcp.example.com/mcp', oauth: { grant: cross_app_access, client_id: oz0 } }\n",
    ),
    code: "OZ-E001",
  },
  {
    rule: "a missing required field is named by both",
    change: edit("plugin.yaml", "version: 1.0.0\n", ""),
    code: "OZ-E001",
  },
  {
    rule: "a model: on a remote agent, whose outside agent runs its own model, is refused by both",
    change: edit(
      "plugin.yaml",
      "    instructions: prompts/helper.md\n",
      "    runtime: remote:a2a\n    instructions: prompts/helper.md\n",
    ),
    code: "OZ-S035",
  },
  {
    rule: "skills naming a skill on a remote agent, which gets none, are refused by both",
    change: (files) =>
      edit(
        "plugin.yaml",
        "    instructions: prompts/helper.md\n",
        "    runtime: remote:a2a\n    skills: [howto]\n    instructions: prompts/helper.md\n",
      )({
        ...files,
        "skills/howto/SKILL.md": "---\nname: howto\ndescription: How to help.\n---\nHelp briefly.\n",
      }),
    code: "OZ-S035",
  },
  {
    rule: "skills naming a skill on an agent at Claude Managed Agents, which gets none, are refused by both",
    change: (files) =>
      edit(
        "plugin.yaml",
        "    model: { use: test, script: scripts/helper.yaml }\n",
        '    runtime: remote:anthropic\n    model: { use: "anthropic:claude-sonnet-4-6" }\n    skills: [howto]\n',
      )({
        ...files,
        "skills/howto/SKILL.md": "---\nname: howto\ndescription: How to help.\n---\nHelp briefly.\n",
      }),
    code: "OZ-S035",
  },
  {
    rule: "a remote:anthropic agent that names no model: is refused by both",
    change: (files) =>
      edit(
        "plugin.yaml",
        "    model: { use: test, script: scripts/helper.yaml }\n",
        "    runtime: remote:anthropic\n",
      )(files),
    code: "OZ-S045",
  },
  {
    rule: "a remote:anthropic agent on an alias is refused by both",
    change: edit(
      "plugin.yaml",
      "    model: { use: test, script: scripts/helper.yaml }\n",
      "    runtime: remote:anthropic\n    model: { use: fast }\n",
    ),
    code: "OZ-S045",
  },
  // Every option spec/agent-definition.txt lists for a provider's remote agent, on each runtime
  // an agent might write it for: none is taken and left unread.
  ...REMOTE_AGENT_OPTIONS.flatMap((option): Case[] => {
    const value = REMOTE_OPTION_VALUES[option];
    const on = (runtime: string) =>
      edit(
        "plugin.yaml",
        "    instructions: prompts/helper.md\n",
        `    runtime: ${runtime}\n    harness: { ${option}: ${value} }\n    instructions: prompts/helper.md\n`,
      );
    return [
      {
        rule: `harness.${option} on an outside A2A agent is refused by both, as a provider's remote agent's option`,
        change: on("remote:a2a"),
        code: "OZ-S036",
      },
      {
        rule: `harness.${option} on a provider's remote agent this oz0 does not have is refused by both`,
        change: on("remote:provider"),
        code: "OZ-S023",
      },
      {
        rule: ANTHROPIC_REFUSES.has(option)
          ? `harness.${option}: ${value} on an agent at Claude Managed Agents is refused by both`
          : `harness.${option}: ${value} on an agent at Claude Managed Agents is taken by both`,
        change: (files) =>
          edit(
            "plugin.yaml",
            "    model: { use: test, script: scripts/helper.yaml }\n",
            `    runtime: remote:anthropic\n    model: { use: "anthropic:claude-sonnet-4-6" }\n    harness: { ${option}: ${value} }\n`,
          )(files),
        ...(ANTHROPIC_REFUSES.has(option) ? { code: "OZ-S036" as const } : {}),
      },
      {
        rule: `harness.${option} on a JSON-lines harness agent is refused by both`,
        change: on("harness:codex"),
        code: "OZ-S033",
      },
      // tools and requires_approval name ACP tool kinds on an ACP harness, which reads them.
      ...(option === "tools" || option === "requires_approval"
        ? []
        : [
            {
              rule: `harness.${option} on an ACP harness agent is refused by both`,
              change: on("harness:claude-code"),
              code: "OZ-S033" as const,
            },
          ]),
    ];
  }),
];

describe("lint and install decide alike", () => {
  let store: Store;
  let catalog: Catalog;
  let root: string;
  let count = 0;

  beforeAll(async () => {
    store = await openStore({ memory: true });
    catalog = new Catalog(store, tmpdir());
    root = await mkdtemp(join(tmpdir(), "oz0-agree-"));
  });
  afterAll(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  for (const one of CASES) {
    it(one.rule, async () => {
      count += 1;
      const tenant = `agree-${count}`;
      for (const name of one.tenant ?? []) await catalog.install(tenant, plugin(name));
      if (one.tenant === undefined) await catalog.install(tenant, plugin("almanac"));
      const dir = join(root, `case-${count}`);
      for (const [file, text] of Object.entries(one.change({ ...BASE }))) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        await writeFile(join(dir, file), text);
      }

      const report = await lintPlugin(dir, {
        writeListing: false,
        tenant: await tenantContextFromCatalog(catalog, tenant),
      });
      const errors = report.findings.filter((f) => f.severity === "error");
      const installed = await catalog.install(tenant, dir).then(
        () => undefined,
        (error: unknown) => error,
      );

      if (one.code === undefined) {
        expect(errors).toEqual([]);
        expect(installed).toBeUndefined();
        return;
      }
      const about = errors.filter((f) => f.code === one.code);
      expect(about, report.findings.map((f) => `${f.code} ${f.message}`).join("\n")).not.toEqual([]);
      expect(isOz0Error(installed), String(installed)).toBe(true);
      const { message } = installed as { message: string };
      // The problem the case is about, in lint's words; where install lists lint's errors, at
      // lint's file, line and column (the tenant's refusals say where in words: `agent helper
      // (plugin.yaml) tools`, `uses: github`; the loader's, by file).
      const byLint = message.includes(": plugin lint finds ");
      expect(
        about.some(
          (f) =>
            message.includes(f.message) && (!byLint || message.includes(`${f.file}:${f.line}:${f.column}`)),
        ),
        message,
      ).toBe(true);
      // Nothing install lists that lint does not report as an error.
      const listed = message.split("\n").filter((line) => /^ {2}- |^[\w./-]+:\d+:\d+: /.test(line));
      for (const line of listed) {
        expect(
          errors.some((f) => line.endsWith(f.message)),
          `install lists a problem lint does not report:\n${line}`,
        ).toBe(true);
      }
    });
  }
});
