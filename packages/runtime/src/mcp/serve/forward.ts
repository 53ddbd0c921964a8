// What a call through `oz0 mcp serve` gives the MCP server behind the function it calls: the
// server's progress and log notifications are recorded in the call's job and passed on to oz0's
// own client (progress under the client's progressToken, logs at the level it set), and a
// server's elicitation goes to that client when it answers elicitation. Sampling is refused: a
// call through `oz0 mcp serve` runs no model of the tenant's; its client has its own.
import { event, type NewEvent } from "../../events/index.js";
import type { McpCallHost, McpElicitation, McpElicitationAnswer, McpLogMessage } from "../../tools/index.js";
import type { CallJob } from "./call-jobs.js";

/** What oz0's own client can be told, and asked. */
export interface ClientForward {
  /** A progress notification, when the client gave a progressToken. */
  readonly progress?: ((message: string) => Promise<void>) | undefined;
  readonly log?: ((message: McpLogMessage) => Promise<void>) | undefined;
  /** Present when the client declared the elicitation capability. */
  readonly elicit?:
    | ((request: McpElicitation, signal: AbortSignal) => Promise<McpElicitationAnswer>)
    | undefined;
}

/** The most notifications one call records of each kind, as a job's calls do. */
const NOTICES_PER_CALL = 100;

export const SAMPLING_IN_SERVE =
  "a call through oz0 mcp serve runs no model of the tenant's (its client has its own); call this tool from an agent's job, where the agent's model serves sampling";

export const ELICITATION_NO_CLIENT =
  "the MCP client that called through oz0 mcp serve does not answer elicitation (it declared no elicitation capability)";

export function forwardingHost(job: CallJob, forward: ClientForward): McpCallHost {
  let chain: Promise<void> = Promise.resolve();
  const counts = { progress: 0, log: 0 };
  const record = (kind: "progress" | "log", entry: NewEvent) => {
    counts[kind] += 1;
    if (counts[kind] > NOTICES_PER_CALL) return;
    chain = chain.then(() => job.append([entry])).catch(() => undefined);
  };
  return {
    job: job.id,
    roots: [],
    progress: (tool, progress) => {
      record("progress", event("mcp_progress", { callId: job.call.callId, tool, ...progress }));
      const of = progress.total === undefined ? "" : `/${progress.total}`;
      const said = progress.message === undefined ? "" : `: ${progress.message}`;
      void forward.progress?.(`${tool} ${progress.progress}${of}${said}`).catch(() => undefined);
    },
    log: (tool, message) => {
      record("log", event("mcp_log", { callId: job.call.callId, tool, ...message }));
      void forward.log?.(message).catch(() => undefined);
    },
    ...(forward.elicit === undefined
      ? {}
      : { elicit: (_tool, request, signal) => forward.elicit!(request, signal) }),
    refusal: { sampling: SAMPLING_IN_SERVE, elicitation: ELICITATION_NO_CLIENT },
    settle: () => chain,
  };
}
