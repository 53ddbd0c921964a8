// A model server on 127.0.0.1 that speaks one provider's wire format for real, over HTTP with
// SSE streaming, for tests of the providers: each request takes the next scripted reply (an
// answer, an HTTP error, a dropped connection, a stall), and every request is kept for the
// test to read. The wire formats live beside it, one module per format.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeAnthropic } from "./anthropic.js";
import { writeOpenAIChat } from "./openai-chat.js";
import { writeOpenAIResponses } from "./openai-responses.js";

export type WireFormat = "openai-responses" | "openai-chat" | "anthropic";

/** What the model says: text, function calls, or both, with the usage it reports. */
export interface FakeAnswer {
  readonly text?: string;
  readonly calls?: readonly { readonly name: string; readonly args: unknown }[];
  /** `cached` prompt tokens were read from the provider's cache, `written` put into it (Anthropic only). */
  readonly usage?: {
    readonly input: number;
    readonly output: number;
    readonly cached?: number;
    readonly written?: number;
  };
}

/** One scripted reply to one request. */
export type FakeReply =
  | FakeAnswer
  /** An HTTP error with the format's error body. */
  | { readonly fail: number; readonly message?: string; readonly headers?: Readonly<Record<string, string>> }
  /** The connection drops: before any response, or after some of the answer streamed. */
  | { readonly drop: "before-response" | "mid-stream"; readonly text?: string }
  /** Nothing comes back for this long, then the connection closes; "forever": until the client gives up. */
  | { readonly stall: number | "forever" }
  /** An error event inside a stream that started well (Anthropic's overloaded_error, OpenAI's error). */
  | { readonly streamError: string; readonly message?: string };

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

export interface FakeServerOptions {
  /** The key a request must carry; a wrong one gets 401 with the key echoed, as some servers do. */
  readonly apiKey?: string;
}

/** Writes an answer or an in-stream error in a wire format. */
export type FormatWriter = (
  res: ServerResponse,
  reply: FakeAnswer | { readonly streamError: string; readonly message?: string },
  request: RecordedRequest,
  options: { readonly stopAfterText?: boolean },
) => void;

const WRITERS: Record<WireFormat, FormatWriter> = {
  "openai-responses": writeOpenAIResponses,
  "openai-chat": writeOpenAIChat,
  anthropic: writeAnthropic,
};

export class FakeModelServer {
  readonly format: WireFormat;
  readonly requests: RecordedRequest[] = [];
  readonly #replies: FakeReply[] = [];
  readonly #server: Server;
  readonly #options: FakeServerOptions;
  #port = 0;

  private constructor(format: WireFormat, options: FakeServerOptions) {
    this.format = format;
    this.#options = options;
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts a server of `format` on 127.0.0.1 on a free port. */
  static async start(format: WireFormat, options: FakeServerOptions = {}): Promise<FakeModelServer> {
    const server = new FakeModelServer(format, options);
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    server.#port = (server.#server.address() as AddressInfo).port;
    return server;
  }

  /** The base URL a provider is configured with (`…/v1`). */
  get url(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  /** Queues replies, played one per request in order. */
  reply(...replies: FakeReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  /** Replies not yet played. */
  get pending(): number {
    return this.#replies.length;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const request: RecordedRequest = {
      path: req.url ?? "",
      headers: req.headers,
      body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    this.requests.push(request);
    const key = this.#options.apiKey;
    if (key !== undefined && presentedKey(req) !== key) {
      // Echo the key, as a careless server might: the client must never repeat it.
      return sendError(res, this.format, 401, `Incorrect API key provided: ${presentedKey(req) ?? "none"}`);
    }
    const reply = this.#replies.shift();
    if (reply === undefined) return sendError(res, this.format, 500, "the fake server has no reply scripted");
    if ("fail" in reply) {
      return sendError(res, this.format, reply.fail, reply.message ?? `status ${reply.fail}`, reply.headers);
    }
    if ("drop" in reply) {
      if (reply.drop === "before-response") {
        req.socket.destroy();
        return;
      }
      WRITERS[this.format](res, { text: reply.text ?? "partial " }, request, { stopAfterText: true });
      // Let the first bytes reach the client, then cut the connection mid-answer.
      setTimeout(() => req.socket.destroy(), 30);
      return;
    }
    if ("stall" in reply) {
      if (reply.stall !== "forever") setTimeout(() => req.socket.destroy(), reply.stall);
      return;
    }
    WRITERS[this.format](res, reply, request, {});
  }
}

function presentedKey(req: IncomingMessage): string | undefined {
  const header = req.headers["x-api-key"];
  if (typeof header === "string") return header;
  const auth = req.headers.authorization;
  return auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
}

function sendError(
  res: ServerResponse,
  format: WireFormat,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body =
    format === "anthropic"
      ? { type: "error", error: { type: anthropicErrorType(status), message } }
      : { error: { message, type: status === 429 ? "rate_limit_exceeded" : "server_error", code: null } };
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function anthropicErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/** Starts an SSE response. */
export function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

/** One SSE event: `event:` when named, then the JSON data. */
export function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
}

/** Splits text into a few pieces, so streaming is seen to stream. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}
