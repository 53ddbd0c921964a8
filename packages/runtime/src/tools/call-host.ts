// What an MCP server may ask of the call that is using it: the roots of the job making the
// call, a model reply (sampling), a person's answer (elicitation), and where its progress and
// log notifications go. The job engine (or `oz0 mcp serve`) attaches one host to the call it
// dispatches; the connection reads it while that call is in flight. A call with no host (one
// made by hand, or the catalog listing a server) gets no roots, and sampling and elicitation
// are refused with the reason.
import type { FunctionCall } from "@oz0/sdk";

/** A progress notification a server sent for the call. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/** A log message a server sent while the call was in flight. */
export interface McpLogMessage {
  readonly level: string;
  readonly logger?: string | undefined;
  readonly data: unknown;
}

/** What a server asks in `sampling/createMessage`, as oz0 passes it to the tenant's model. */
export interface McpSamplingRequest {
  readonly messages: readonly { readonly role: "user" | "assistant"; readonly text: string }[];
  readonly systemPrompt?: string | undefined;
  /** The most tokens the server asks the answer to have. */
  readonly maxTokens: number;
}

/** The model's answer to a sampling request. */
export interface McpSamplingReply {
  readonly model: string;
  readonly text: string;
  readonly stopReason: "endTurn" | "maxTokens";
}

/** A server's `elicitation/create` in form mode. */
export interface McpElicitation {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

export interface McpElicitationAnswer {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Readonly<Record<string, unknown>> | undefined;
}

export interface McpCallHost {
  /** Who the call is for, so requests from a server shared by several jobs find theirs. */
  readonly job: string;
  /** Absolute folders the server may see as roots: the job's tool paths. */
  readonly roots: readonly { readonly path: string; readonly name: string }[];
  progress?(tool: string, progress: McpProgress): void;
  log?(tool: string, message: McpLogMessage): void;
  /** Absent: sampling is refused with `refusal.sampling`. */
  sample?(tool: string, request: McpSamplingRequest, signal: AbortSignal): Promise<McpSamplingReply>;
  /** Absent: elicitation is refused with `refusal.elicitation`. */
  elicit?(tool: string, request: McpElicitation, signal: AbortSignal): Promise<McpElicitationAnswer>;
  /** Why sampling or elicitation cannot be served for this call. */
  readonly refusal?: { readonly sampling?: string; readonly elicitation?: string };
  /** Resolves once every progress and log entry so far is recorded. */
  settle?(): Promise<void>;
}

const HOST = Symbol.for("oz0.mcp.call-host");

/**
 * `call` with `host` attached, or the function that gives it when a server first asks for it
 * (most calls reach no MCP server, and a host is several closures); an object spread of the
 * call keeps it.
 */
export function withMcpHost<C extends FunctionCall>(call: C, host: McpCallHost | (() => McpCallHost)): C {
  return { ...call, [HOST]: host };
}

/** The host attached to `call`, if any. */
export function mcpHostOf(call: FunctionCall): McpCallHost | undefined {
  const held = (call as { [HOST]?: McpCallHost | (() => McpCallHost) })[HOST];
  return typeof held === "function" ? held() : held;
}
