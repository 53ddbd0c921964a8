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
  labelsField,
  modelChoiceSchema,
  nameField,
  pluginPath,
  repeats,
  semverField,
  strictObject,
  versionRangeField,
} from "./fields.js";
import { flowDefinitionSchema } from "./flow.js";
import { toolEntryField } from "./tool-ref.js";

/**
 * What a plugin's code may register, one word per host capability (spec/host-capabilities.txt).
 * `capabilities:` lists those the code really registers; the loader compares the two.
 *
 * - `tool`: `host.addTool` (a ToolContract class registers one too)
 * - `admin`: `host.addAdmin`; `config` and `status` say which side of it, as the spec asks
 *   ("if the plugin registers runtime, config, and status behavior, list runtime, config, and status")
 * - `provider`: `host.addProvider`; `channel`: `host.addChannel` (a SurfaceAdapter too)
 * - `hook`: `host.addHook` (a GovernanceContract too); `memory`: `host.addMemory` (a MemoryContract too)
 * - `runtime`: `host.addRuntime`; `harness`: `host.addHarness`; `prompt_inventory`: `host.addPromptInventory`;
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
  "harness",
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

/** How oz0 gets a remote MCP server's OAuth tokens (`mcp.oauth.grant`). */
export const MCP_OAUTH_GRANTS = ["authorization_code", "client_credentials", "cross_app_access"] as const;
export type McpOAuthGrant = (typeof MCP_OAUTH_GRANTS)[number];
/** How oz0 authenticates itself at the authorization server's token endpoint. */
export const MCP_CLIENT_AUTH = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
/** The JWS algorithms a private_key_jwt assertion may be signed with: asymmetric ones only. */
export const MCP_SIGNING_ALGS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;

const oauthUrl = (what: string) =>
  z.url({ protocol: /^https?$/, error: `${what} must be an http:// or https:// address` });

/**
 * `mcp.oauth:` of a remote tool: which OAuth grant gets its tokens. `authorization_code` (what a
 * tool without `oauth:` does) is a person's login through `oz0 mcp login`; `client_credentials`
 * (SEP-1046) and `cross_app_access` (SEP-990: an identity assertion exchanged at the enterprise
 * IdP for an ID-JAG, then the JWT bearer grant) get tokens with no person at hand. Only names
 * and addresses are written here; the client secret, private key, ID token and IdP client
 * secret are the tenant's, set with `oz0 mcp secret set <tool> oauth NAME`.
 */
export const mcpOAuthSchema = z.lazy(() =>
  strictObject({
    grant: choiceField(MCP_OAUTH_GRANTS, "oauth.grant"),
    client_id: z.string().min(1, "oauth.client_id must not be empty").optional(),
    client_auth: choiceField(MCP_CLIENT_AUTH, "oauth.client_auth").optional(),
    signing_alg: choiceField(MCP_SIGNING_ALGS, "oauth.signing_alg").optional(),
    issuer: oauthUrl("oauth.issuer").optional(),
    scope: z.string().min(1, "oauth.scope must not be empty").optional(),
    idp: strictObject({
      issuer: oauthUrl("oauth.idp.issuer").optional(),
      token_endpoint: oauthUrl("oauth.idp.token_endpoint").optional(),
      client_id: z.string().min(1, "oauth.idp.client_id must not be empty"),
    }).optional(),
  }).superRefine((oauth, ctx) => {
    // A field the grant needs is named at the line that needs it: one missing has no line.
    const problem = (message: string, path: string[]) =>
      ctx.addIssue({ code: "custom", message, path, input: oauth });
    if (oauth.grant === "authorization_code") {
      for (const key of ["client_id", "client_auth", "signing_alg", "issuer", "scope", "idp"] as const) {
        if (oauth[key] !== undefined) {
          problem(
            `oauth.${key} goes with grant: client_credentials or cross_app_access; with authorization_code a person logs in with oz0 mcp login (--client-id for a client registered beforehand)`,
            [key],
          );
        }
      }
      return;
    }
    if (oauth.client_id === undefined)
      problem(`grant: ${oauth.grant} needs client_id: oz0's client at the authorization server`, ["grant"]);
    if (oauth.client_auth === "private_key_jwt" && oauth.signing_alg === undefined)
      problem(
        `client_auth: private_key_jwt needs signing_alg: the algorithm of the private key (${MCP_SIGNING_ALGS.join(", ")})`,
        ["client_auth"],
      );
    if (oauth.client_auth !== "private_key_jwt" && oauth.signing_alg !== undefined)
      problem("oauth.signing_alg goes with client_auth: private_key_jwt", ["signing_alg"]);
    if (oauth.grant === "cross_app_access") {
      if (oauth.idp === undefined)
        problem(
          "grant: cross_app_access needs idp: { issuer or token_endpoint, client_id }, the enterprise IdP that exchanges the identity assertion",
          ["grant"],
        );
      else if ((oauth.idp.issuer === undefined) === (oauth.idp.token_endpoint === undefined))
        problem(
          "oauth.idp has either issuer: (its token endpoint is discovered) or token_endpoint:, not both or neither",
          ["idp"],
        );
    } else if (oauth.idp !== undefined) {
      problem("oauth.idp goes with grant: cross_app_access", ["idp"]);
    }
  }),
);
export type McpOAuth = z.output<typeof mcpOAuthSchema>;

/**
 * `mcp:` of a tool: a local server started as `{ command, args, env }`, or a remote one
 * reached at `{ url, headers, oauth }`.
 */
export const mcpServerSchema = z.lazy(() =>
  strictObject({
    command: z.string().min(1, "command must not be empty").optional(),
    args: z.array(z.string({ error: (issue) => `args are text; quote ${describe(issue.input)}` })).optional(),
    env: stringMap("env").optional(),
    url: z.url({ protocol: /^https?$/, error: "url must be an http:// or https:// address" }).optional(),
    headers: stringMap("headers").optional(),
    oauth: mcpOAuthSchema.optional(),
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
    } else {
      if (server.headers !== undefined) problem("headers: goes with url:, not command:", ["headers"]);
      if (server.oauth !== undefined)
        problem("oauth: goes with url:; a server oz0 starts (command:) gets its secrets as env", ["oauth"]);
    }
  }),
);
export type McpServer = z.output<typeof mcpServerSchema>;

/** A tool ID the plugin owns; its functions come from the code entry, or from an MCP server. */
export const toolDeclSchema = z.lazy(() =>
  strictObject({
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
  }),
);
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

/** What a routine does with a tick no scheduler reached in time (no process was up). */
export const ROUTINE_MISSED = ["skip", "catch_up_last"] as const;
/** What a routine does when it fires while its previous job has not ended. */
export const ROUTINE_OVERLAP = ["skip", "queue", "allow"] as const;
/** The roles a routine may run as: a viewer starts no job. */
export const ROUTINE_ROLES = ["runner", "approver", "operator", "admin"] as const;

/** `event: webhook`: a signed POST fires the routine (docs/routines.md). */
export const WEBHOOK_EVENT = "webhook";
/** `event: job.ended:<agent>`: a job of that agent (or flow) ending fires the routine. */
export const JOB_ENDED_EVENT = "job.ended:";
/** `event: channel:<plugin>/<channel>`: each message a channel receives fires the routine (docs/channels.md). */
export const CHANNEL_EVENT = "channel:";

const CHANNEL_TARGET = /^[a-z0-9][a-z0-9-]*\/[A-Za-z0-9][A-Za-z0-9_-]*$/;

const JOB_ENDED_TARGET = /^(?:[a-z0-9][a-z0-9-]*\/)?[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** What an event names, or why it names nothing oz0 fires. */
export function routineEvent(
  event: string,
):
  | { kind: "webhook" }
  | { kind: "job.ended"; run: string }
  | { kind: "channel"; channel: string }
  | { problem: string } {
  if (event === WEBHOOK_EVENT) return { kind: "webhook" };
  if (event.startsWith(CHANNEL_EVENT)) {
    const channel = event.slice(CHANNEL_EVENT.length);
    if (CHANNEL_TARGET.test(channel)) return { kind: "channel", channel };
    return {
      problem: `'${event}' names no channel after channel:; write channel:<plugin>/<channel>, such as channel:channels/slack`,
    };
  }
  if (event.startsWith(JOB_ENDED_EVENT)) {
    const run = event.slice(JOB_ENDED_EVENT.length);
    if (JOB_ENDED_TARGET.test(run)) return { kind: "job.ended", run };
    return {
      problem: `'${event}' names no agent after job.ended:; write job.ended:<plugin>/<agent> (or a bare agent of this plugin)`,
    };
  }
  return {
    problem: `oz0 fires no event '${event}'; an event is webhook (a signed POST), job.ended:<plugin>/<agent> (a job of that agent ending) or channel:<plugin>/<channel> (a message the channel receives)`,
  };
}

/** Whether `zone` is a time zone this process knows (IANA names such as Europe/Paris, or UTC). */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return undefined;
  } catch {
    return `'${zone}' is not a time zone; write an IANA name such as UTC, Europe/Paris or America/New_York`;
  }
}

const routineCost = () =>
  z
    .number({
      error: (issue) => `limits.max_cost_usd must be a number of US dollars, got ${describe(issue.input)}`,
    })
    .positive("limits.max_cost_usd must be above 0");
const routineCount = (what: string) =>
  z
    .number({ error: (issue) => `${what} must be a whole number above 0, got ${describe(issue.input)}` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be above 0`);

/**
 * A routine's `limits:`, each a ceiling over the agent's own: a job runs under the lower of the
 * two. `max_cost_usd` counts the model calls the tenant's price table prices.
 */
export const routineLimitsSchema = z.lazy(() =>
  strictObject({
    max_turns: routineCount("limits.max_turns").optional(),
    max_tokens: routineCount("limits.max_tokens").optional(),
    wall_seconds: routineCount("limits.wall_seconds").optional(),
    max_cost_usd: routineCost().optional(),
  }),
);
export type RoutineLimits = z.output<typeof routineLimitsSchema>;

/**
 * `identity:`, the principal a routine's jobs run as, in the tenant the routine is installed
 * in: a role and the agents in its scope (addresses, `<plugin>/*`, or `*`). Left out, the
 * routine is a runner of exactly the agent or flow it runs.
 */
export const routineIdentitySchema = z.lazy(() =>
  strictObject({
    role: choiceField(ROUTINE_ROLES, "identity.role").default("runner"),
    agents: z
      .array(addressField("agent address or pattern"))
      .min(1, "identity.agents lists at least one agent")
      .optional(),
  }),
);
export type RoutineIdentity = z.output<typeof routineIdentitySchema>;

/** A routine: a schedule or an event that starts an agent or flow with an input. */
export const routineSchema = z.lazy(() =>
  strictObject({
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
      .superRefine((value, ctx) => {
        const read = routineEvent(value);
        if ("problem" in read) ctx.addIssue({ code: "custom", message: read.problem, input: value });
      })
      .optional(),
    /** The IANA time zone the schedule is read in; UTC when left out. */
    timezone: z
      .string()
      .superRefine((value, ctx) => {
        const problem = timeZoneProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
      })
      .optional(),
    missed: choiceField(ROUTINE_MISSED, "missed").optional(),
    overlap: choiceField(ROUTINE_OVERLAP, "overlap").optional(),
    run: addressField("agent or flow (<name> or <plugin>/<name>)"),
    input: z.unknown().optional(),
    identity: routineIdentitySchema.optional(),
    /** The functions the job may call: a subset of the agent's `tools:`; left out, all of them. */
    tools: z.array(toolEntryField()).optional(),
    limits: routineLimitsSchema.optional(),
  }).superRefine((routine, ctx) => {
    if ((routine.schedule === undefined) === (routine.event === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "a routine has either schedule: (cron) or event:, one of them",
        input: routine,
      });
    }
    if (routine.schedule === undefined) {
      for (const key of ["timezone", "missed"] as const) {
        if (routine[key] !== undefined) {
          ctx.addIssue({
            code: "custom",
            message: `${key}: goes with schedule:; an event routine fires when its event comes`,
            path: [key],
            input: routine[key],
          });
        }
      }
    }
  }),
);
export type Routine = z.output<typeof routineSchema>;
export type RoutineInput = z.input<typeof routineSchema>;

/**
 * Whether the tools entry `entry` is among `agentTools`, an agent's `tools:`: the same
 * function, or one an agent entry's `<tool>.*` covers. Bare entries are read in their own
 * plugin (`entryPlugin` for the routine's, `agentPlugin` for the agent's).
 */
export function toolEntryCovered(
  entry: string,
  entryPlugin: string,
  agentTools: readonly string[],
  agentPlugin: string,
): boolean {
  const wanted = qualifyEntry(entry, entryPlugin);
  return agentTools.some((tool) => {
    const have = qualifyEntry(tool, agentPlugin);
    if (have === wanted) return true;
    if (!have.endsWith(".*")) return false;
    const prefix = have.slice(0, -1);
    return wanted.startsWith(prefix) && !wanted.slice(prefix.length).includes(".");
  });
}

/**
 * Whether the agent or flow `address` (`<plugin>/<name>`) is in a routine identity's `agents`:
 * `*`, `<plugin>/*`, or the address itself; bare entries are `plugin`'s.
 */
export function identityCovers(
  agents: readonly string[],
  address: string,
  plugin: string | undefined,
): boolean {
  return agents.some((entry) => {
    if (entry === "*") return true;
    const full = entry.includes("/") || plugin === undefined ? entry : `${plugin}/${entry}`;
    if (full.endsWith("/*")) return address.startsWith(full.slice(0, -1));
    return full === address;
  });
}

/** A tools entry as `<plugin>/<tool>.<function>` (built-ins and tool refs as they are). */
export function qualifyEntry(entry: string, plugin: string): string {
  if (entry.startsWith("oz.") || entry.includes("/") || entry.includes(":")) return entry;
  return `${plugin}/${entry}`;
}

const BARE_FUNCTION = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_*-]+$/;

/** What a plugin uses of another: a version range and the parts it names, bare. */
export const usesEntrySchema = z.lazy(() =>
  strictObject({
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
  }),
);
export type UsesEntry = z.output<typeof usesEntrySchema>;

const PLUGIN_HINTS = {
  instructions: "agent fields go under agents:, or in a file under agents/",
  id: "a plugin is named with name:",
};

/** plugin.yaml. Unknown keys are refused. */
export const pluginManifestSchema = z.lazy(() =>
  strictObject(
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
      labels: labelsField("labels").optional(),
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
  }),
);
export type PluginManifest = z.output<typeof pluginManifestSchema>;
export type PluginManifestInput = z.input<typeof pluginManifestSchema>;
