// plugin.yaml: the manifest at the root of a plugin folder (DESIGN.md, "A plugin folder").
// It names and versions the plugin, declares what its code registers, the tool IDs it owns,
// its inline agents and YAML flows, its routines, and the other plugins it uses.
import * as z from "zod";
import { BUILTIN_TOOL_ID, nameProblem } from "../names/index.js";
import { agentDefinitionSchema } from "./agent.js";
import {
  addressField,
  choiceField,
  describe,
  modelChoiceSchema,
  nameField,
  pluginPath,
  repeats,
  semverField,
  strictObject,
  versionRangeField,
} from "./fields.js";
import { flowDefinitionSchema } from "./flow.js";

/**
 * What a plugin's code may register, one word per host capability (spec/host-capabilities.txt).
 * `capabilities:` lists those the code really registers; the loader compares the two.
 *
 * - `tool`: `host.addTool` (a ToolContract class registers one too)
 * - `admin`: `host.addAdmin`; `config` and `status` say which side of it, as the spec asks
 *   ("if the plugin registers runtime, config, and status behavior, list runtime, config, and status")
 * - `provider`: `host.addProvider`; `channel`: `host.addChannel` (a SurfaceAdapter too)
 * - `hook`: `host.addHook` (a GovernanceContract too); `memory`: `host.addMemory` (a MemoryContract too)
 * - `runtime`: `host.addRuntime`; `prompt_inventory`: `host.addPromptInventory`;
 *   `system_prompt`: `host.addSystemPrompt`
 * - `before_run`, `before_tool_call`, `after_tool_result`: the lifecycle specs
 * - `flow`: `host.addFlow`, a flow defined in code (YAML flows under `flows:` need no word)
 */
export const CAPABILITY_KINDS = [
  "tool",
  "admin",
  "config",
  "status",
  "provider",
  "channel",
  "hook",
  "memory",
  "runtime",
  "prompt_inventory",
  "system_prompt",
  "before_run",
  "before_tool_call",
  "after_tool_result",
  "flow",
] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

const stringMap = (what: string) =>
  z.record(
    z.string(),
    z.string({ error: (issue) => `${what} values are text; quote ${describe(issue.input)} to make it one` }),
  );

/**
 * `mcp:` of a tool: a local server started as `{ command, args, env }`, or a remote one
 * reached at `{ url, headers }`.
 */
export const mcpServerSchema = strictObject({
  command: z.string().min(1, "command must not be empty").optional(),
  args: z.array(z.string({ error: (issue) => `args are text; quote ${describe(issue.input)}` })).optional(),
  env: stringMap("env").optional(),
  url: z.url({ protocol: /^https?$/, error: "url must be an http:// or https:// address" }).optional(),
  headers: stringMap("headers").optional(),
}).superRefine((server, ctx) => {
  const problem = (message: string, path: string[] = []) =>
    ctx.addIssue({ code: "custom", message, path, input: server });
  if ((server.command === undefined) === (server.url === undefined)) {
    problem("an MCP server has either command: (started locally) or url: (reached over HTTP)");
    return;
  }
  if (server.url !== undefined) {
    if (server.args !== undefined) problem("args: goes with command:, not url:", ["args"]);
    if (server.env !== undefined) problem("env: goes with command:, not url:", ["env"]);
  } else if (server.headers !== undefined) {
    problem("headers: goes with url:, not command:", ["headers"]);
  }
});
export type McpServer = z.output<typeof mcpServerSchema>;

/** A tool ID the plugin owns; its functions come from the code entry, or from an MCP server. */
export const toolDeclSchema = strictObject({
  id: nameField("tool").superRefine((id, ctx) => {
    if (id === BUILTIN_TOOL_ID) {
      ctx.addIssue({
        code: "custom",
        message: `the tool ID '${id}' belongs to oz0's built-ins; choose another`,
        input: id,
      });
    }
  }),
  description: z.string().optional(),
  mcp: mcpServerSchema.optional(),
});
export type ToolDecl = z.output<typeof toolDeclSchema>;

const CRON_NICKNAMES = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];
// Bounds of each field of a 6-field expression; a 5-field one leaves out the seconds.
const CRON_FIELDS = [
  { name: "second", min: 0, max: 59 },
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
];

/** Why `schedule` is not a cron expression, or `undefined` when it is one. */
export function cronProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (CRON_NICKNAMES.includes(text)) return undefined;
  const parts = text.split(/\s+/);
  const usage = `a schedule is a cron expression of 5 fields (minute hour day month weekday), such as "0 3 * * *"`;
  if (parts.length !== 5 && parts.length !== 6)
    return `'${schedule}' has ${parts.length} ${parts.length === 1 ? "field" : "fields"}; ${usage}`;
  const fields = CRON_FIELDS.slice(6 - parts.length);
  for (const [index, part] of parts.entries()) {
    const field = fields[index];
    if (field === undefined) continue;
    if (!/^[A-Za-z0-9*?,/#LW-]+$/.test(part))
      return `the ${field.name} field '${part}' of '${schedule}' is not cron; ${usage}`;
    for (const number of part.match(/\d+/g) ?? []) {
      const value = Number(number);
      const isStep = part.includes(`/${number}`);
      if (!isStep && (value < field.min || value > field.max)) {
        return `the ${field.name} field of '${schedule}' holds ${value}; it takes ${field.min} to ${field.max}`;
      }
    }
  }
  return undefined;
}

const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

/** A routine: a schedule or an event that starts an agent or flow with an input. */
export const routineSchema = strictObject({
  name: nameField("routine"),
  description: z.string().optional(),
  schedule: z
    .string()
    .superRefine((value, ctx) => {
      const problem = cronProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
    })
    .optional(),
  event: z
    .string()
    .regex(
      EVENT_NAME,
      "an event is a name such as github/pull_request.opened: letters, digits, '.', '_', ':', '/', '-'",
    )
    .optional(),
  run: addressField("agent or flow (<name> or <plugin>/<name>)"),
  input: z.unknown().optional(),
}).superRefine((routine, ctx) => {
  if ((routine.schedule === undefined) === (routine.event === undefined)) {
    ctx.addIssue({
      code: "custom",
      message: "a routine has either schedule: (cron) or event:, one of them",
      input: routine,
    });
  }
});
export type Routine = z.output<typeof routineSchema>;

const BARE_FUNCTION = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_*-]+$/;

/** What a plugin uses of another: a version range and the parts it names, bare. */
export const usesEntrySchema = strictObject({
  version: versionRangeField().optional(),
  tools: z
    .array(
      z.string().superRefine((value, ctx) => {
        if (!BARE_FUNCTION.test(value)) {
          ctx.addIssue({
            code: "custom",
            message: `'${value}' is not <tool>.<function>: under the plugin's own key its parts are bare, without <plugin>/`,
            input: value,
          });
        }
      }),
    )
    .optional(),
  agents: z.array(nameField("agent")).optional(),
  skills: z
    .array(
      z.string().superRefine((value, ctx) => {
        const problem = value === "*" ? undefined : nameProblem("skill", value);
        if (problem !== undefined)
          ctx.addIssue({ code: "custom", message: `${problem} (or * for every skill)`, input: value });
      }),
    )
    .optional(),
});
export type UsesEntry = z.output<typeof usesEntrySchema>;

const PLUGIN_HINTS = {
  instructions: "agent fields go under agents:, or in a file under agents/",
  id: "a plugin is named with name:",
};

/** plugin.yaml. Unknown keys are refused. */
export const pluginManifestSchema = strictObject(
  {
    /** The manifest format's version (`"1.0"`); from 1.0 some lint warnings are errors. */
    schema: z
      .string({
        error: (issue) =>
          typeof issue.input === "number"
            ? `schema is a version in quotes, such as schema: "1.0" (YAML reads ${issue.input} as a number)`
            : `schema is a version in quotes, such as schema: "1.0"`,
      })
      .regex(/^\d+\.\d+$/, 'schema is a version such as "1.0"')
      .optional(),
    name: nameField("plugin"),
    version: semverField(),
    description: z.string().optional(),
    main: pluginPath().optional(),
    capabilities: z.array(choiceField(CAPABILITY_KINDS, "a capability")).optional(),
    model: modelChoiceSchema.optional(),
    tools: z.array(toolDeclSchema).optional(),
    agents: z.array(agentDefinitionSchema).optional(),
    flows: z.array(flowDefinitionSchema).optional(),
    routines: z.array(routineSchema).optional(),
    uses: z.record(nameField("plugin"), usesEntrySchema).optional(),
    verified: z.boolean().optional(),
  },
  PLUGIN_HINTS,
).superRefine((plugin, ctx) => {
  const unique = (
    values: string[] | undefined,
    what: string,
    path: (index: number) => (string | number)[],
  ) => {
    for (const { index, value } of repeats(values ?? [])) {
      ctx.addIssue({
        code: "custom",
        message: `${what} '${value}' is declared twice`,
        path: path(index),
        input: value,
      });
    }
  };
  unique(plugin.capabilities, "capability", (index) => ["capabilities", index]);
  unique(
    plugin.tools?.map((tool) => tool.id),
    "tool ID",
    (index) => ["tools", index, "id"],
  );
  unique(
    plugin.agents?.map((agent) => agent.name),
    "agent",
    (index) => ["agents", index, "name"],
  );
  unique(
    plugin.flows?.map((flow) => flow.name),
    "flow",
    (index) => ["flows", index, "name"],
  );
  unique(
    plugin.routines?.map((routine) => routine.name),
    "routine",
    (index) => ["routines", index, "name"],
  );
  const agentNames = new Set(plugin.agents?.map((agent) => agent.name));
  plugin.flows?.forEach((flow, index) => {
    if (agentNames.has(flow.name)) {
      ctx.addIssue({
        code: "custom",
        message: `flow '${flow.name}' has the name of an agent of this plugin; agents and flows share one set of names`,
        path: ["flows", index, "name"],
        input: flow.name,
      });
    }
  });
  if (plugin.uses !== undefined && Object.hasOwn(plugin.uses, plugin.name)) {
    ctx.addIssue({
      code: "custom",
      message: `a plugin does not list itself under uses:; name its own parts bare`,
      path: ["uses", plugin.name],
      input: plugin.name,
    });
  }
});
export type PluginManifest = z.output<typeof pluginManifestSchema>;
export type PluginManifestInput = z.input<typeof pluginManifestSchema>;
