// The rules every name in oz0 follows. Names travel into model requests, task queue names,
// URLs and policy patterns, so each rule keeps a name safe in all of them at once.
import { Oz0Error } from "../errors/index.js";

/** What kind of name a rule checks; used in error messages and `Oz0Error.data.kind`. */
export type NameKind =
  | "plugin"
  | "agent"
  | "flow"
  | "skill"
  | "routine"
  | "tool"
  | "function"
  | "tag"
  | "label"
  | "pool"
  | "failure kind";

interface NameRule {
  readonly pattern: RegExp;
  readonly max: number;
  /** How the rule reads to a person, completing "must be …". */
  readonly describe: string;
}

const SLUG: NameRule = {
  pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  max: 63,
  describe: "lowercase letters, digits and single dashes, not starting or ending with a dash",
};

// Tool IDs and function names become `<tool>__<function>` for a model: they keep to the
// characters every major provider accepts, never hold `__`, and never start or end with `_`,
// so the model-visible name splits back into exactly one tool and one function.
const TOOL_ID: NameRule = {
  pattern: /^[a-z][a-z0-9-]*(?:_[a-z0-9-]+)*$/,
  max: 64,
  describe:
    "a lowercase letter followed by lowercase letters, digits, '-' and single '_' (no '__', no '.', no '/', not ending with '_')",
};

const FUNCTION_NAME: NameRule = {
  pattern: /^[A-Za-z][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/,
  max: 64,
  describe:
    "a letter followed by letters, digits, '-' and single '_' (no '__', no '.', no '/', not ending with '_')",
};

const TAG: NameRule = {
  pattern: /^[a-z0-9._-]+$/,
  max: 63,
  describe: "lowercase letters, digits, '.', '_' and '-'",
};

const FAILURE_KIND: NameRule = {
  pattern: /^[a-z0-9_]+$/,
  max: 40,
  describe: "lowercase letters, digits and '_'",
};

const RULES: Record<NameKind, NameRule> = {
  plugin: SLUG,
  agent: SLUG,
  flow: SLUG,
  skill: SLUG,
  routine: SLUG,
  tool: TOOL_ID,
  function: FUNCTION_NAME,
  tag: TAG,
  // Labels and pools go into task queue names (`pool.<pool>.<label>.<label>`), split at '.'.
  label: SLUG,
  pool: SLUG,
  "failure kind": FAILURE_KIND,
};

const LONG_NAME_SHOWN = 80;

/** Says what is wrong with `name` as a name of `kind`, or `undefined` when it is valid. */
export function nameProblem(kind: NameKind, name: string): string | undefined {
  const rule = RULES[kind];
  if (name.length === 0) return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} name must not be empty`;
  if (name.length > rule.max) {
    // Shown shortened: a pasted document as a name must not become a message that floods a log.
    const shown = name.length > LONG_NAME_SHOWN ? `${name.slice(0, LONG_NAME_SHOWN)}…` : name;
    return `${kind} name '${shown}' is ${name.length} characters long; at most ${rule.max} are allowed`;
  }
  if (!rule.pattern.test(name)) return `${kind} name '${name}' must be ${rule.describe}`;
  return undefined;
}

export function isValidName(kind: NameKind, name: string): boolean {
  return nameProblem(kind, name) === undefined;
}

/** Throws `INVALID_NAME` unless `name` is a valid name of `kind`. */
export function assertName(kind: NameKind, name: string): void {
  const problem = nameProblem(kind, name);
  if (problem !== undefined) throw new Oz0Error("INVALID_NAME", problem, { data: { kind, name } });
}

/** The tool ID of oz0's built-in functions (`oz.fail`, `oz.delegate`, …); no plugin may define it. */
export const BUILTIN_TOOL_ID = "oz";

/** The built-in functions this oz0 has, each `oz.<name>` (a model sees `oz__<name>`). */
export const BUILTIN_FUNCTIONS = [
  "fail",
  "ask_user",
  "skill",
  "delegate",
  "find_tools",
  "call_tool",
  "propose_skill",
] as const;

export type BuiltinFunction = (typeof BUILTIN_FUNCTIONS)[number];

/** Whether `name` is one of oz0's built-in functions (`fail`, not `oz.fail`). */
export function isBuiltinFunction(name: string): name is BuiltinFunction {
  return (BUILTIN_FUNCTIONS as readonly string[]).includes(name);
}

/** At most this many tags on an agent. */
export const MAX_TAGS = 16;

/**
 * At most this many node labels: on a node, and required by an agent (its own and its plugin's
 * together). A node serves every subset of its labels, so the number stays small.
 */
export const MAX_LABELS = 8;

/** Failure kinds the platform itself ends jobs with; an agent may not declare these. */
export const PLATFORM_FAILURE_KINDS = [
  "timeout",
  "undeclared",
  "cancelled",
  "killed",
  "invalid_input",
  "invalid_output",
  "max_turns",
  "token_limit",
  "budget_exceeded",
  "model_error",
  "tool_clash",
  "name_clash",
  "policy_denied",
  "unplanned_model_call",
  "dead_letter",
  "internal",
  "step_failed",
  "part_removed",
  "remote_error",
] as const;
export type PlatformFailureKind = (typeof PLATFORM_FAILURE_KINDS)[number];

export const FAILURE_LIMITS = { maxKinds: 32, maxDescription: 200 } as const;
