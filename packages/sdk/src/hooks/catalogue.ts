// The hook catalogue: every interception point of oz0 with its blocking and modifying
// semantics. The runtime's hook bus, lint and the docs all read this one frozen table, so a
// hook point exists exactly when it has a row here.
import { Oz0Error } from "../errors/index.js";
import { closestWord } from "../text/index.js";

/** The phase a hook point belongs to; the docs group the catalogue by it. */
export type HookCategory =
  | "Execution"
  | "LLM"
  | "Tool"
  | "Prompt"
  | "Memory"
  | "Communication"
  | "Sensor"
  | "Session"
  | "Context"
  | "Error"
  | "I/O"
  | "KG"
  | "Skills"
  | "Governance";

export interface HookPointInfo {
  readonly name: string;
  /** A blocking hook runs before the action, and a handler that throws stops it. */
  readonly blocking: boolean;
  /** A modifying hook lets a handler return changes to its payload. */
  readonly modifying: boolean;
  readonly category: HookCategory;
  /** One line: when the hook fires and what a handler may do there. */
  readonly description: string;
  /** `spec`: a row of the specification's Hook Reference; `oz0`: a point this platform adds. */
  readonly origin: "spec" | "oz0";
}

const ROWS = [
  {
    name: "pre_execution",
    blocking: true,
    modifying: true,
    category: "Execution",
    description:
      "A job is about to run its agent or flow; a handler may rewrite the input or refuse the run.",
    origin: "spec",
  },
  {
    name: "post_execution",
    blocking: false,
    modifying: false,
    category: "Execution",
    description: "A job's run ended: succeeded, failed or cancelled.",
    origin: "spec",
  },
  {
    name: "pre_llm_call",
    blocking: true,
    modifying: true,
    category: "LLM",
    description:
      "A model call is about to be made; a handler may rewrite messages or settings, or refuse it (budgets).",
    origin: "spec",
  },
  {
    name: "post_llm_call",
    blocking: false,
    modifying: true,
    category: "LLM",
    description: "A model call returned; a handler may rewrite the response before the job uses it.",
    origin: "spec",
  },
  {
    name: "pre_tool_call",
    blocking: true,
    modifying: true,
    category: "Tool",
    description: "A function is about to be called; a handler may rewrite its arguments or refuse the call.",
    origin: "spec",
  },
  {
    name: "post_tool_call",
    blocking: false,
    modifying: true,
    category: "Tool",
    description: "A function returned; a handler may rewrite the result before the model sees it.",
    origin: "spec",
  },
  {
    name: "collect_tools",
    blocking: false,
    modifying: false,
    category: "Tool",
    description: "The functions offered to the model for this turn were collected.",
    origin: "spec",
  },
  {
    name: "execute_tool",
    blocking: false,
    modifying: false,
    category: "Tool",
    description: "An allowed function call is being dispatched to the tool that owns it.",
    origin: "spec",
  },
  {
    name: "pre_prompt_build",
    blocking: true,
    modifying: true,
    category: "Prompt",
    description: "The system prompt is about to be built; a handler may change its sections or refuse.",
    origin: "spec",
  },
  {
    name: "post_prompt_build",
    blocking: false,
    modifying: true,
    category: "Prompt",
    description: "The system prompt was built; a handler may rewrite its text.",
    origin: "spec",
  },
  {
    name: "pre_memory_store",
    blocking: true,
    modifying: true,
    category: "Memory",
    description: "An entry is about to be written to memory; a handler may rewrite or refuse it.",
    origin: "spec",
  },
  {
    name: "post_memory_store",
    blocking: false,
    modifying: false,
    category: "Memory",
    description: "An entry was written to memory.",
    origin: "spec",
  },
  {
    name: "pre_agent_communication",
    blocking: true,
    modifying: true,
    category: "Communication",
    description:
      "A message from one agent to another is about to be sent; a handler may rewrite or refuse it.",
    origin: "spec",
  },
  {
    name: "post_agent_communication",
    blocking: false,
    modifying: false,
    category: "Communication",
    description: "A message between agents was delivered.",
    origin: "spec",
  },
  {
    name: "pre_sensor_event",
    blocking: true,
    modifying: true,
    category: "Sensor",
    description: "A sensor event is about to be handled; a handler may rewrite or refuse it.",
    origin: "spec",
  },
  {
    name: "post_sensor_event",
    blocking: false,
    modifying: false,
    category: "Sensor",
    description: "A sensor event was handled.",
    origin: "spec",
  },
  {
    name: "pre_session_access",
    blocking: true,
    modifying: true,
    category: "Session",
    description:
      "A session's state is about to be read or written; a handler may rewrite or refuse the access.",
    origin: "spec",
  },
  {
    name: "post_session_access",
    blocking: false,
    modifying: false,
    category: "Session",
    description: "A session's state was read or written.",
    origin: "spec",
  },
  {
    name: "on_pre_checkpoint",
    blocking: true,
    modifying: false,
    category: "Execution",
    description: "A job's state is about to be checkpointed to its history; a handler may refuse.",
    origin: "spec",
  },
  {
    name: "on_post_checkpoint",
    blocking: false,
    modifying: false,
    category: "Execution",
    description: "A checkpoint of a job's state was written.",
    origin: "spec",
  },
  {
    name: "on_pre_restore",
    blocking: true,
    modifying: false,
    category: "Execution",
    description: "A job is about to be resumed from its history; a handler may refuse.",
    origin: "spec",
  },
  {
    name: "on_post_restore",
    blocking: false,
    modifying: false,
    category: "Execution",
    description: "A job was restored from its history and is about to continue.",
    origin: "spec",
  },
  {
    name: "pre_agent_handoff",
    blocking: true,
    modifying: true,
    category: "Communication",
    description:
      "Control is about to pass from one agent to another; a handler may rewrite or refuse the handoff.",
    origin: "spec",
  },
  {
    name: "post_agent_handoff",
    blocking: false,
    modifying: false,
    category: "Communication",
    description: "Control passed from one agent to another.",
    origin: "spec",
  },
  {
    name: "pre_context_assembly",
    blocking: false,
    modifying: true,
    category: "Context",
    description: "A model context is about to be assembled; a handler may add, drop or rewrite its parts.",
    origin: "spec",
  },
  {
    name: "post_context_assembly",
    blocking: false,
    modifying: false,
    category: "Context",
    description: "A model context was assembled; retained and evicted parts are known.",
    origin: "spec",
  },
  {
    name: "collect_context",
    blocking: false,
    modifying: false,
    category: "Context",
    description: "The context parts offered for assembly were collected.",
    origin: "spec",
  },
  {
    name: "on_error",
    blocking: false,
    modifying: false,
    category: "Error",
    description: "Something failed in a job: a step, a hook handler or a tool.",
    origin: "spec",
  },
  {
    name: "user_input",
    blocking: true,
    modifying: true,
    category: "I/O",
    description: "A person's message is about to enter a job; a handler may rewrite or refuse it.",
    origin: "spec",
  },
  {
    name: "user_output",
    blocking: true,
    modifying: true,
    category: "I/O",
    description: "An answer is about to go out to a person; a handler may rewrite or withhold it.",
    origin: "spec",
  },
  {
    name: "object_model_event",
    blocking: false,
    modifying: false,
    category: "KG",
    description: "The knowledge graph changed: an entity or relation was recorded or removed.",
    origin: "spec",
  },
  {
    name: "skills_check",
    blocking: false,
    modifying: false,
    category: "Skills",
    description: "An agent's skills were checked: the index was built or a skill body was read.",
    origin: "spec",
  },
  {
    name: "pre_approval",
    blocking: true,
    modifying: true,
    category: "Governance",
    description:
      "A request for a person's approval is about to be created; a handler may rewrite it or refuse the call.",
    origin: "oz0",
  },
  {
    name: "pre_child_job",
    blocking: true,
    modifying: true,
    category: "Execution",
    description:
      "A job is about to start a child job (oz.delegate or a flow step); a handler may rewrite or refuse it.",
    origin: "oz0",
  },
  {
    name: "on_kill_switch",
    blocking: false,
    modifying: false,
    category: "Governance",
    description: "A kill switch stopped an agent or a tool in a running job, at its next call.",
    origin: "oz0",
  },
] as const satisfies readonly HookPointInfo[];

type Row = (typeof ROWS)[number];

/** The name of a hook point in the catalogue. */
export type HookName = Row["name"];
/** Hook points where a handler may return changes to its payload. */
export type ModifyingHookName = Extract<Row, { modifying: true }>["name"];
/** Hook points that run before their action and may stop it. */
export type BlockingHookName = Extract<Row, { blocking: true }>["name"];

/** Every hook point, in catalogue order: the specification's rows, then oz0's own. */
export const HOOK_POINTS: readonly HookPointInfo[] = Object.freeze(
  ROWS.map((row) => Object.freeze({ ...row })),
);

/** The hook names, in catalogue order. */
export const HOOK_NAMES: readonly HookName[] = Object.freeze(ROWS.map((row) => row.name));

const BY_NAME: ReadonlyMap<string, HookPointInfo> = new Map(HOOK_POINTS.map((info) => [info.name, info]));

export function isHookName(name: string): name is HookName {
  return BY_NAME.has(name);
}

/**
 * The catalogue row of a hook point; throws `UNKNOWN_HOOK` for a name not in the catalogue,
 * suggesting the closest one.
 * @example hookPoint("pre_tool_call").blocking // true
 */
export function hookPoint(name: string): HookPointInfo {
  const info = BY_NAME.get(name);
  if (info !== undefined) return info;
  const suggestion = closestWord(name, HOOK_NAMES);
  const hint = suggestion === undefined ? "" : ` Did you mean '${suggestion}'?`;
  throw new Oz0Error(
    "UNKNOWN_HOOK",
    `'${name}' is not a hook point of oz0.${hint} The hook catalogue (HOOK_POINTS) lists all ${HOOK_POINTS.length}.`,
    { data: suggestion === undefined ? { hook: name } : { hook: name, suggestion } },
  );
}

/**
 * The hook points the host's lifecycle specs register on: BeforeRun, BeforeToolCall and
 * AfterToolResult are handlers on these hooks, so they share one bus and one trace.
 */
export const LIFECYCLE_HOOKS = Object.freeze({
  before_run: "pre_execution",
  before_tool_call: "pre_tool_call",
  after_tool_result: "post_tool_call",
} as const satisfies Record<string, HookName>);
