// The fixed table of oz0 error codes. docs/errors.md documents each row; a test fails when
// the two disagree, so adding a code means adding its documentation in the same change.

/** Whose mistake an error is: the caller's input (`user`) or the platform's own fault (`system`). */
export type ErrorSide = "user" | "system";

export interface ErrorCodeInfo {
  readonly side: ErrorSide;
  /**
   * The HTTP status a server answers with: 4xx for a `user` code, 5xx for a `system` one, so
   * proxies and clients read whose fault it is the same way the table does.
   */
  readonly status: number;
  /**
   * Whether the same request, sent again unchanged, may succeed later (a service that was down,
   * a rate limit): a client may retry these, and only these, on its own.
   */
  readonly retryable: boolean;
  /** One line on when the code is raised. */
  readonly summary: string;
  /** What `Oz0Error.data` holds for this code. */
  readonly data: string;
}

export const ERROR_CODES = {
  INVALID_ADDRESS: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "An address or address pattern is malformed.",
    data: "{ input: string, form?: string }: the text given and the form that was expected.",
  },
  INVALID_NAME: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "A plugin, agent, flow, tool, function, skill, tag or failure-kind name breaks its rule.",
    data: "{ kind: string, name: string }: what kind of name, and the name given.",
  },
  MODEL_NAME_TOO_LONG: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "A model-visible function name is longer than a provider accepts.",
    data: "{ name: string, length: number, limit: number }",
  },
  INVALID_MANIFEST: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A plugin.yaml, agent file, skill or kind: Tool manifest does not parse or does not match its schema.",
    data: "{ issues: { file, line, column, path, message }[] }: every problem found, each with its place.",
  },
  UNSAFE_YAML: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A YAML document uses a construct refused for untrusted input (too many aliases, custom tags, too deep or too large).",
    data: "{ file: string, line?: number, column?: number, limit?: number }",
  },
  INVALID_PLUGIN: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A plugin object or contract class does not have the shape the host expects, or an install finds lint errors in the folder.",
    data: "{ plugin?: string, detail: string, findings?: { file, line, column, code, message }[] }",
  },
  INVALID_BUNDLE: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A plugin bundle breaks a bundle rule: a path that leads out or is not allowed, a link out of the folder, a file, total or file count over its limit, or contents that do not match the digest they came with.",
    data: "{ detail: string, path?: string, limit?: string, max?: number, digest?: string }: what was wrong, the file in the bundle, and the limit it went past.",
  },
  DUPLICATE_REGISTRATION: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "A plugin registered two capabilities of one kind under the same name.",
    data: "{ plugin: string, kind: string, name: string }",
  },
  UNKNOWN_HOOK: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "A handler names a hook point that is not in the catalogue.",
    data: "{ hook: string, suggestion?: string }",
  },
  INVALID_INPUT: {
    side: "user",
    status: 422,
    retryable: false,
    summary: "Arguments or job input do not match the schema they are checked against.",
    data: "{ issues: { path: string, message: string }[] }",
  },
  POLICY_VIOLATION: {
    side: "user",
    status: 403,
    retryable: false,
    summary: "A governance handler refused an action.",
    data: "{ contractId: string, reason: string, details: object }",
  },
  INTERNAL: {
    side: "system",
    status: 500,
    retryable: false,
    summary: "Something failed that is not the caller's mistake; the message says what.",
    data: "{ cause?: string }",
  },
  TOOL_FAILED: {
    side: "user",
    status: 422,
    retryable: false,
    summary:
      "A function threw an ordinary error while it ran: the tool's own failure, not the platform's; the message is the tool's own text.",
    data: "{ address: string, name: string }: the function by address and the class of what it threw (Error, TypeError).",
  },
  LIMIT_EXCEEDED: {
    side: "user",
    status: 422,
    retryable: false,
    summary:
      "A call went past one of a tool's bounds: input or output size, nesting depth, running time or redirects.",
    data: "{ limit: string, max: number, unit: string }: which bound, its value, and its unit (bytes, characters, levels, ms, s, redirects).",
  },
  NETWORK_ERROR: {
    side: "system",
    status: 502,
    retryable: true,
    summary:
      "An outside service could not be reached or broke its protocol (name resolution, connection, TLS, a malformed response).",
    data: "{ url: string, cause: string }",
  },
  NOT_FOUND: {
    side: "user",
    status: 404,
    retryable: false,
    summary:
      "A tenant, plugin or part that was named does not exist, or the caller may not see it (the two answers are the same).",
    data: "{ kind: string, name: string, tenant?: string }: what kind of thing was looked for, and the name given.",
  },
  UNAUTHENTICATED: {
    side: "user",
    status: 401,
    retryable: false,
    summary:
      "A request to a server carries no credentials, or credentials the server does not accept (unknown, expired or revoked).",
    data: "{ scheme?: string, reason?: string }: the authentication scheme the server expects (Bearer; hmac-sha256 for a routine's webhook, with the reason: signature, timestamp, stale or replay).",
  },
  FORBIDDEN: {
    side: "user",
    status: 403,
    retryable: false,
    summary:
      "The caller is known but its role or grants do not allow the operation in this tenant; the message names what it lacks.",
    data: "{ tenant: string, action: string, role: string }: the tenant, the operation asked for, and the caller's role.",
  },
  NOT_SUPPORTED: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A request asks for something this oz0 does not have (such as --server for a command that runs only on this machine); the message says what to do instead.",
    data: "{ feature: string, command?: string }: what was asked for, and the command that refused it.",
  },
  CONFLICT: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "A write lost a race: what it changes was changed by another caller since it was read (the version it names is no longer the current one); read it again and decide again.",
    data: "{ kind: string, name: string, expected: string, actual: string }: what was changed, and the version the write named and the current one.",
  },
  REQUEST_TOO_LARGE: {
    side: "user",
    status: 413,
    retryable: false,
    summary: "A request's body is larger than the server accepts; send less, or raise the server's limit.",
    data: "{ limit: number, unit: string }: the largest body the server accepts, and its unit (bytes).",
  },
  TOO_MANY_REQUESTS: {
    side: "user",
    status: 429,
    retryable: true,
    summary:
      "A caller sent more requests than its rate limit allows; it may try again after the pause data gives.",
    data: "{ limit: string, retryAfter: number }: which limit was reached, and how many seconds to wait (the Retry-After header's value).",
  },
  ALREADY_INSTALLED: {
    side: "user",
    status: 409,
    retryable: false,
    summary: "An install names a plugin the tenant already has; an update replaces it.",
    data: "{ tenant: string, plugin: string, version: string }: the version installed now.",
  },
  ALREADY_EXISTS: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "A tenant, user, live API key, tenant routine or agent runtime of that name exists already; pick another name, or remove (revoke) the one there first.",
    data: "{ kind: string, name: string, tenant?: string }: what kind of thing, the name given, and the tenant it is in.",
  },
  ROUTINE_PAUSED: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "A routine was fired (by hand or by its webhook) while it is paused; resume it first (oz0 routine resume).",
    data: "{ tenant: string, routine: string }: the tenant and the routine's name.",
  },
  NAME_TAKEN: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "An install or update would add an agent or flow name, or a tool ID, that another plugin of the tenant already defines.",
    data: "{ tenant: string, plugin: string, taken: { kind, name, owner }[] }: each name and the plugin that owns it.",
  },
  NAME_CLASH: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "Two plugins of a tenant define one agent or flow name (or a skill named without its plugin), so neither runs.",
    data: "{ kind: string, name: string, plugins: string[] }",
  },
  TOOL_CLASH: {
    side: "user",
    status: 409,
    retryable: false,
    summary: "Two plugins of a tenant provide one tool ID, so neither's functions run.",
    data: "{ tool: string, plugins: string[] }",
  },
  OWNER_MISMATCH: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "An address names a plugin that does not own the part; the message names the owner the server knows.",
    data: "{ address: string, owner: string }",
  },
  USES_UNSATISFIED: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "A plugin needs what the tenant lacks: a plugin under uses: that is missing or outside the version range, or a part it names that does not exist.",
    data: "{ tenant: string, plugin: string, problems: { where, reference, problem }[] }: each reference that does not hold, and why.",
  },
  NOT_GRANTED: {
    side: "user",
    status: 403,
    retryable: false,
    summary:
      "An agent or flow reached for another plugin's function, agent or skill that its plugin's uses: does not list, or that a tenant admin has not granted; the message names the entry to add or the command to run (oz0 plugin grant <plugin>).",
    data: "{ plugin: string, address: string, list: string, grant: 'uses' | 'tenant' }: the plugin refused, the part by address, the list that names it (uses.<plugin>.tools, .agents or .skills), and which grant is missing: its uses: entry, or the tenant admin's.",
  },
  PART_IN_USE: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "An install, update or remove would break what another installed plugin uses (a part it names, or the versions its uses: accepts), or take away an agent or flow a job that has not ended runs as; --force with a reason goes ahead.",
    data: "{ tenant: string, plugin: string, problems: { plugin, where, reference, problem }[], jobs?: { id, address, status }[] }: each plugin that would break, and how; or the jobs that would be stranded.",
  },
  BREAKING_CHANGE: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "An update asks more of an agent's callers (a new failure kind, or a failure flag turned on) without a new major version; --force with a reason goes ahead.",
    data: "{ tenant: string, plugin: string, from: string, to: string, breaks: { agent, kind, change }[] }: the versions, and each agent's failure kind that is new (change: kind) or whose flag turned on (change: retryable, partial or person).",
  },
  UNPLANNED_MODEL_CALL: {
    side: "user",
    status: 422,
    retryable: false,
    summary: "The offline test model was asked for a model call its script does not plan.",
    data: "{ script: string, turns: number, step: number }: the script, how many turns it plans, and the model call the job asked for.",
  },
  MODEL_NOT_CONFIGURED: {
    side: "user",
    status: 422,
    retryable: false,
    summary: "An agent's model names an alias the tenant has not set, or a provider this oz0 does not have.",
    data: "{ alias: string, provider?: string }",
  },
  INVALID_TELEMETRY: {
    side: "user",
    status: 400,
    retryable: false,
    summary:
      "A trace setting (an OTEL_* variable such as OTEL_TRACES_SAMPLER, or a traceparent) has a value oz0 cannot use.",
    data: "{ variable: string }",
  },
  JOB_STATE_CONFLICT: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "A job's status does not allow what was asked: answering a job that waits for no answer, resuming one that has ended or runs in another process, cancelling one that has ended.",
    data: "{ job: string, status: string, to?: string } (`to`: the status a refused move asked for)",
  },
  LEASE_LOST: {
    side: "system",
    status: 500,
    retryable: false,
    summary:
      "A worker lost its lease on a job (another worker took the job over), so the job engine refused its writes.",
    data: "{ job: string, owner: string }",
  },
  STEP_FAILED: {
    side: "user",
    status: 422,
    retryable: false,
    summary:
      "A step of a flow was refused or failed: a function call (refused by its checks, or its function threw) or a child job that did not succeed.",
    data: "{ step: string, address: string, code?: string, kind?: string }: the step, what it called or started, and the call's error code or the child job's failure kind.",
  },
  PROPOSAL_STATE_CONFLICT: {
    side: "user",
    status: 409,
    retryable: false,
    summary: "A skill proposal was approved or rejected after a person had already decided it.",
    data: "{ proposal: string, status: string }",
  },
  MODEL_CALL_FAILED: {
    side: "system",
    status: 502,
    retryable: false,
    summary:
      "A model provider's call failed for good: refused (a bad key, an unknown model, a bad request) or still failing after its retries (rate limits, server faults, dropped connections, timeouts).",
    data: "{ model: string, attempts: number, retryable: boolean, status?: number }: provider:model, the attempts made, whether the last failure was one a retry may cure, and the HTTP status when the server answered.",
  },
  TOO_MANY_TOOLS: {
    side: "user",
    status: 400,
    retryable: false,
    summary: "A model request would offer more functions than providers accept in one request (128).",
    data: "{ count: number, limit: number }",
  },
  KILLED: {
    side: "user",
    status: 403,
    retryable: false,
    summary:
      "An agent or tool is stopped by the tenant's kill switch: the agent starts no job and its running jobs end at their next step; the tool's calls are refused.",
    data: '{ kind: "agent" | "tool", address: string, by: string | null }: what is stopped, by address, and who stopped it.',
  },
  APPROVAL_REQUIRED: {
    side: "user",
    status: 403,
    retryable: false,
    summary:
      "A call needs a person's approval under the tenant's tool policy (an ask rule), and its caller cannot wait for one (a call by hand).",
    data: "{ address: string, rule: string }: the function and the ask rule that matched it.",
  },
  APPROVAL_DENIED: {
    side: "user",
    status: 403,
    retryable: false,
    summary: "A person denied the approval a call waited for, so the call did not run.",
    data: "{ approval: string, address: string, by: string, reason: string | null }",
  },
  APPROVAL_STATE_CONFLICT: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "An approval cannot be decided or used as asked: it was already decided the other way, its job has ended, or the call it would let through is not the call it approved (other arguments, agent or function definition).",
    data: "{ approval: string, status: string }: the approval and its status (or the job's, when the job has ended).",
  },
  HOOK_FAILED: {
    side: "user",
    status: 422,
    retryable: false,
    summary:
      "A hook handler registered as required failed (threw something other than PolicyViolation), so the action it guards did not happen.",
    data: "{ hook: string, plugin: string, handler: string, error: string }: the hook point, the plugin and registration of the handler, and its error.",
  },
  MCP_AUTH_REQUIRED: {
    side: "user",
    status: 409,
    retryable: false,
    summary:
      "The remote MCP server behind a tool asks for OAuth that oz0 cannot give: a login it does not have (or can no longer refresh), which a person gives with oz0 mcp login <plugin>/<tool>; or, for a tool whose oauth: grant needs no person, a credential that is not set (oz0 mcp secret set <plugin>/<tool> oauth NAME), or a token request the authorization server or IdP refused.",
    data: "{ tool: string }: the tool by address.",
  },
  MCP_SERVER_ERROR: {
    side: "system",
    status: 502,
    retryable: true,
    summary:
      "The MCP server behind a tool could not be started or reached, broke the protocol, or stopped during a call; oz0 starts it again, with a growing pause, at the next call.",
    data: "{ tool: string, server: string, cause: string }: the tool by address, the server (its command or URL), and what went wrong, with secrets redacted.",
  },
  MCP_TOOL_ERROR: {
    side: "user",
    status: 422,
    retryable: false,
    summary:
      "An MCP server's tool answered a call with an error (isError); the message is the tool's own text.",
    data: "{ address: string, content: object[] }: the function by address and the content the tool answered with, secrets redacted.",
  },
  REMOTE_AGENT_ERROR: {
    side: "system",
    status: 502,
    retryable: false,
    summary:
      "A remote agent could not be used: an outside A2A agent's card failed its checks, it failed or rejected the task, or a message may have reached it already and is not sent twice (remote:a2a); or a session at Claude Managed Agents stopped sending events before its turn ended (remote:anthropic).",
    data: "{ url: string, reason: string, task?: string, state?: string }: where, why (card, task, endpoint, unsent, stream ended), and the remote task and its state when there was one.",
  },
  PATH_OUTSIDE_ROOTS: {
    side: "user",
    status: 403,
    retryable: false,
    summary:
      "A tool's file or process operation named a path outside the roots its call may use (its project, its agent's folder, its own folder), through '..', a symbolic link or an absolute path, wrote to a read-only root, or named a file the runtime cannot vouch for (one with several hard links).",
    data: "{ path: string }: the path as the tool gave it.",
  },
  HARNESS_FAILED: {
    side: "system",
    status: 502,
    retryable: true,
    summary:
      "The harness process behind an agent (runtime: harness:<name>) could not be started, broke its protocol, lacks a capability the agent needs, or stopped during a session; a later run of the job starts it again.",
    data: "{ harness: string, cause: string }: the harness by name, and what went wrong.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
