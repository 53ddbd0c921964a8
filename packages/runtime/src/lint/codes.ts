// The fixed table of lint codes. Codes are stable: scripts and CI configurations match on
// them, so a code is never reused for another problem. docs/lint.md documents every row,
// and a test fails when the two disagree.
//
// The scheme: OZ-E0xx for a file that cannot be read as a plugin (YAML, schema, unknown
// keys, a code entry that does not load), OZ-S0xx for the rules the specification states.
// OZ-S019 is the number the specification itself gives its rule on bare names.

export type LintSeverity = "error" | "warning";

export interface LintCodeInfo {
  /** How serious the problem is, unless the rule raises it (see `raised`). */
  readonly severity: LintSeverity;
  /** When a warning becomes an error, for the codes that do. */
  readonly raised?: string;
  /** One line on what the code means. */
  readonly summary: string;
}

export const LINT_CODES = {
  "OZ-E001": {
    severity: "error",
    summary: "A value does not match the schema of the file it is in (plugin.yaml, an agent, a skill).",
  },
  "OZ-E002": {
    severity: "error",
    summary: "A file cannot be read: YAML syntax, a refused YAML construct, missing front matter, bad JSON.",
  },
  "OZ-E003": {
    severity: "error",
    summary: "An unknown key, usually a typo; the message names the closest known key.",
  },
  "OZ-E004": {
    severity: "error",
    summary:
      "The code entry named by main: fails to load, its setup throws, a tool it registers fails to build, a hook it registers names no hook point, or the loader refuses what no other rule finds.",
  },
  "OZ-E005": {
    severity: "error",
    summary: "A JSON Schema file an agent names is not a valid JSON Schema (checked in strict mode).",
  },
  "OZ-S001": {
    severity: "error",
    summary: "A path leads out of the plugin folder (absolute, '..', or a link pointing outside).",
  },
  "OZ-S002": {
    severity: "error",
    summary: "A file the plugin names does not exist in the plugin folder.",
  },
  "OZ-S003": {
    severity: "warning",
    raised: 'an error from manifest schema "1.0" on',
    summary: "An agent declares neither input nor input_schema.",
  },
  "OZ-S004": {
    severity: "warning",
    raised: 'an error from manifest schema "1.0" on',
    summary: "An agent declares neither output nor output_schema.",
  },
  "OZ-S005": {
    severity: "error",
    summary: "x-oz0-diff in an output schema does not name two different properties that exist.",
  },
  "OZ-S006": {
    severity: "error",
    summary: "x-oz0-order in an output schema names a property that does not exist.",
  },
  "OZ-S007": {
    severity: "warning",
    summary: "A function's model-visible name (<tool>__<function>) is longer than 64 characters.",
  },
  "OZ-S008": {
    severity: "warning",
    summary: "An agent on a JSON-lines harness lists tools other than oz.ask_user, which it never gets.",
  },
  "OZ-S009": {
    severity: "warning",
    summary: "tool_loading: lazy on a JSON-lines harness or a remote agent, where it does nothing.",
  },
  "OZ-S010": {
    severity: "warning",
    summary: "An agent's harness comes from another plugin and is not one of oz0's official harnesses.",
  },
  "OZ-S011": {
    severity: "error",
    summary: "skills.propose beside changes: on one agent.",
  },
  "OZ-S012": {
    severity: "error",
    summary: "skills.propose on a remote agent.",
  },
  "OZ-S013": {
    severity: "error",
    summary: "skills.propose.arguments sets an argument the platform sets, or more than 16.",
  },
  "OZ-S014": {
    severity: "error",
    summary: "An agent's skills list has more than 64 entries.",
  },
  "OZ-S015": {
    severity: "error",
    summary: "failures breaks the specification's limits (kind, description, count, platform kinds).",
  },
  "OZ-S016": {
    severity: "error",
    summary: "tags breaks the specification's limits (at most 16, each lowercase and at most 63 characters).",
  },
  "OZ-S017": {
    severity: "error",
    summary: "A Markdown agent names instructions:, but its body is its prompt.",
  },
  "OZ-S018": {
    severity: "error",
    summary: "capabilities: or tools: in plugin.yaml does not match what the code registers.",
  },
  "OZ-S019": {
    severity: "warning",
    raised: "an error for a verified plugin (--verified, or verified: true in plugin.yaml)",
    summary: "A bare name of another plugin's part; write its address (--fix does).",
  },
  "OZ-S020": {
    severity: "warning",
    summary: "Another plugin's part that uses: in plugin.yaml does not list.",
  },
  "OZ-S021": {
    severity: "error",
    summary: "An address names a plugin that does not own the part (checked against a tenant).",
  },
  "OZ-S022": {
    severity: "error",
    summary:
      "An agent adds a failure kind or turns a failure flag on over the installed version, without a new major version (checked against a tenant).",
  },
  "OZ-S023": {
    severity: "error",
    summary:
      "An agent names a runtime this oz0 does not have (its runtimes: pydantic-ai, openai-agents, harness:<name>, remote:a2a and remote:anthropic).",
  },
  "OZ-S024": {
    severity: "error",
    summary: "tools: names a built-in (oz.<name>) that oz0 does not have.",
  },
  "OZ-S025": {
    severity: "error",
    summary:
      "A test-model script cannot play: a turn it cannot read, a call of a function the agent lacks, an oz.fail kind it does not declare.",
  },
  "OZ-S026": {
    severity: "error",
    summary:
      "Something the plugin uses is missing: a function its own tool lacks; against a tenant, what install would find missing.",
  },
  "OZ-S027": {
    severity: "error",
    summary: "A name another plugin of the tenant has (checked against a tenant).",
  },
  "OZ-S028": {
    severity: "error",
    summary:
      "A routine's tools: are not a subset of its agent's, or a routine that runs a flow sets tools: or limits:.",
  },
  "OZ-S029": {
    severity: "error",
    summary:
      "A routine cannot fire as written: its identity's agents leave out what it runs, its job.ended event watches what it runs, or croner cannot read its schedule.",
  },
  "OZ-S030": {
    severity: "error",
    summary:
      "A part of a Claude Code plugin or a standalone Agent Skill that oz0 cannot honour (docs/compat.md).",
  },
  "OZ-S031": {
    severity: "error",
    summary:
      "An agent's runtime does not run on its model's provider (openai-agents: only OpenAI's Responses and Chat formats).",
  },
  "OZ-S033": {
    severity: "error",
    summary:
      "An agent's harness: options are not ones its harness reads: an ACP harness reads tools, requires_approval, mode, config and needs; a JSON-lines harness reads none.",
  },
  "OZ-S034": {
    severity: "error",
    summary:
      "A routine fires an agent whose ACP harness does not ask before each call: it does not say so (acp.asks), or the agent's harness.mode or harness.config voids it.",
  },
  "OZ-S035": {
    severity: "error",
    summary:
      "An agent field its runtime never reads: skills naming a skill or delegation: on a remote agent, whose loop runs at its provider, and model: on one whose provider does not run the model it names (remote:a2a).",
  },
  "OZ-S036": {
    severity: "error",
    summary:
      "An agent's harness: options are not what its runtime takes (an outside A2A agent's: card, skill, key, signature, jwks, version, auth, task_usd, poll, session_header; an agent at Claude Managed Agents': tools, requires_approval, max_budget_usd, session_hour_usd, workspace, keep_session).",
  },
  "OZ-S037": {
    severity: "warning",
    summary: "A remote agent lists tools:; its loop runs at the outside agent, which gets none of them.",
  },
  "OZ-S038": {
    severity: "error",
    summary:
      "An agent needs more node labels, with its plugin's, than a node can have (8): no node could run it.",
  },
  "OZ-S039": {
    severity: "warning",
    summary: "An agent lists a node label its plugin's labels: already require.",
  },
  "OZ-S040": {
    severity: "error",
    summary: "A routine is fired by a channel of its own plugin that the code does not register.",
  },
  "OZ-S042": {
    severity: "error",
    summary:
      "A channel's notifications could never be switched on as registered: supportsNotifications without notificationsEnabled(config), or the reverse.",
  },
  "OZ-S043": {
    severity: "error",
    summary: "An admin spec's schema is not a JSON Schema oz0 can check, so no config could be set.",
  },
  "OZ-S044": {
    severity: "error",
    summary:
      "An admin spec's default config does not pass its own schema: the plugin would run with a config it refuses.",
  },
  "OZ-S045": {
    severity: "error",
    summary:
      "A remote:anthropic agent's model: is not one Claude Managed Agents runs it on: it names none, an alias or another provider's model, or sets options.",
  },
} as const satisfies Record<string, LintCodeInfo>;

export type LintCode = keyof typeof LINT_CODES;
