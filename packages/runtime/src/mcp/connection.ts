// One MCP server behind one tool, as a client of `@modelcontextprotocol/sdk` sees it: started
// (or reached) on first use, its tools listed and kept current through
// `notifications/tools/list_changed`, and started again after it stops, with a pause that
// doubles with each failure in a row. A server that dies in the middle of a call fails that call
// with a clear error; the next call finds it running again.

import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaObject } from "@oz0/sdk";
import { isOz0Error, nameProblem, Oz0Error } from "@oz0/sdk";
import { argumentIssues } from "../schemas/index.js";
import type { McpCallHost, McpProgress } from "../tools/index.js";
import { samplingRequestOf } from "./client-capabilities.js";
import { type ClientSdk, clientSdk, startedSdk } from "./client-sdk.js";
import type { McpEndpoint } from "./endpoint.js";
import type { OAuthOptions } from "./oauth.js";
import type { McpCallResult } from "./results.js";

/** How oz0 treats every MCP server, unless a manager is given other values. */
export const MCP_DEFAULTS = {
  /** How long starting a server and its `initialize` handshake may take. */
  connectTimeoutMs: 30_000,
  /** How long one call may go without an answer or a progress notification. */
  callTimeoutMs: 300_000,
  /** The pause before starting a server again after its first failure; it doubles after each one in a row. */
  firstRetryMs: 250,
  /** The longest pause between two starts of a failing server. */
  maxRetryMs: 30_000,
} as const;

export type McpTimings = { readonly [K in keyof typeof MCP_DEFAULTS]: number };

/** What oz0 calls itself in the `initialize` handshake. */
export const MCP_CLIENT_INFO = { name: "oz0", version: "0.1.0" } as const;

/** A function of the tool, as the server lists it. */
export interface McpFunction {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

/** A tool the server lists that oz0 cannot offer, and why. */
export interface McpLeftOut {
  readonly name: string;
  readonly reason: string;
}

export interface McpListing {
  readonly functions: readonly McpFunction[];
  readonly leftOut: readonly McpLeftOut[];
}

export type McpConnectionState = "idle" | "connecting" | "ready" | "retrying" | "stopped";

/** How a connection is doing, for `oz0 mcp status` and tests. */
export interface McpConnectionStatus {
  /** The tool by address. */
  readonly tool: string;
  readonly tenant: string;
  readonly server: string;
  readonly state: McpConnectionState;
  /** The server's process, for a local one that is running. */
  readonly pid: number | null;
  /** How many times the server was started (or reached) in this process. */
  readonly starts: number;
  /** Failures in a row; the next start waits `firstRetryMs * 2^(failures - 1)`, at most `maxRetryMs`. */
  readonly failures: number;
  readonly functions: number;
  readonly lastError: string | null;
}

export interface McpConnectionOptions {
  readonly timings: McpTimings;
  /** How a remote server's OAuth is kept and authorized; absent, a server asking for a login is refused. */
  readonly oauth?: ((endpoint: McpEndpoint) => OAuthOptions) | undefined;
  /** Told when the server's list of tools changed (after it sent `list_changed`). */
  readonly onToolsChanged?: (connection: McpConnection) => void;
}

/** The `_meta` key that ties a call's request to the call until it is sent (observe). */
const CALL_MARKER = "oz0/call";

/** A progress notification's fields, when `message` is one. */
function progressIn(
  message: JSONRPCMessage,
): { token: string | number; progress: number; total?: number; message?: string } | undefined {
  if (!("method" in message) || message.method !== "notifications/progress" || "id" in message)
    return undefined;
  const params = message.params as
    | { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown }
    | undefined;
  const token = params?.progressToken;
  if ((typeof token !== "string" && typeof token !== "number") || typeof params?.progress !== "number") {
    return undefined;
  }
  return {
    token,
    progress: params.progress,
    ...(typeof params.total === "number" ? { total: params.total } : {}),
    ...(typeof params.message === "string" ? { message: params.message } : {}),
  };
}

/** The host of a call no job made (`oz0 tool call`): no roots, and nothing served. */
const NO_JOB: McpCallHost = { job: "", roots: [] };

/** The longest retry pause a caller waits out; during a longer one it is refused at once. */
const MAX_RETRY_WAIT_MS = 1_000;
/** How much of a local server's stderr is kept for error messages. */
const STDERR_TAIL_CHARS = 1_500;
const MAX_LIST_PAGES = 100;

export class McpConnection {
  readonly endpoint: McpEndpoint;
  readonly #options: McpConnectionOptions;
  #state: McpConnectionState = "idle";
  #client: Client | undefined;
  #transport: Transport | undefined;
  #connecting: Promise<Client> | undefined;
  #listing: McpListing = { functions: [], leftOut: [] };
  #starts = 0;
  #failures = 0;
  #retryAt = 0;
  #lastError: string | null = null;
  #stderr = "";
  /** The hosts of the calls in flight: whose roots the server sees, who serves its requests. */
  readonly #inFlight = new Map<symbol, McpCallHost>();
  #rootsKey = "[]";
  /** Each call's progress listener, by the marker its request carries until it is sent. */
  readonly #progressOf = new Map<string, (progress: McpProgress) => void>();
  /** The progress token the SDK gave each marked request. */
  readonly #progressTokens = new Map<string | number, string>();
  #calls = 0;
  /** The listing under way after the server said its tools changed; uses wait for it. */
  #refreshing: Promise<void> | undefined;

  constructor(endpoint: McpEndpoint, options: McpConnectionOptions) {
    this.endpoint = endpoint;
    this.#options = options;
  }

  get state(): McpConnectionState {
    return this.#state;
  }

  status(): McpConnectionStatus {
    const transport = this.#transport;
    // A transport is there only once a start loaded the SDK.
    const pid =
      transport !== undefined && transport instanceof startedSdk().StdioClientTransport
        ? transport.pid
        : null;
    return {
      tool: this.endpoint.address,
      tenant: this.endpoint.tenant,
      server: this.endpoint.server,
      state: this.#state,
      pid: this.#state === "ready" ? pid : null,
      starts: this.#starts,
      failures: this.#failures,
      functions: this.#listing.functions.length,
      lastError: this.#lastError,
    };
  }

  /** The server's tools, connecting first when needed, and after the list it just said changed. */
  async listing(signal?: AbortSignal): Promise<McpListing> {
    await this.ready(signal);
    await this.#refreshing;
    return this.#listing;
  }

  /**
   * Calls tool `name` of the server. Throws MCP_SERVER_ERROR when the server cannot be reached,
   * stops during the call, or does not answer in time; the abort reason when `signal` fires.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    host?: McpCallHost,
  ): Promise<McpCallResult> {
    const client = await this.ready(signal);
    const key = Symbol(name);
    this.#inFlight.set(key, host ?? NO_JOB);
    this.rootsChanged(client);
    const tool = `${this.endpoint.address}.${name}`;
    const marker = host?.progress === undefined ? undefined : String(this.#calls++);
    if (marker !== undefined) this.#progressOf.set(marker, (progress) => host?.progress?.(tool, progress));
    try {
      const result = await client.callTool(
        { name, arguments: args, ...(marker === undefined ? {} : { _meta: { [CALL_MARKER]: marker } }) },
        undefined,
        {
          signal,
          timeout: this.#options.timings.callTimeoutMs,
          resetTimeoutOnProgress: true,
          // Asking for progress is what lets a long call keep its timeout alive; the host hears
          // of each notification from the transport (observe), which misses none.
          onprogress: () => {},
        },
      );
      // The server answered: whatever failed before, it works now.
      this.#failures = 0;
      return result as McpCallResult;
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw this.callError(name, error);
    } finally {
      if (marker !== undefined) {
        for (const [token, found] of this.#progressTokens)
          if (found === marker) this.#progressTokens.delete(token);
        this.#progressOf.delete(marker);
      }
      this.#inFlight.delete(key);
      if (this.#client === client) this.rootsChanged(client);
      await host?.settle?.();
    }
  }

  /** Stops the server (or leaves the remote one) for good; later use is refused. */
  async stop(): Promise<void> {
    this.#state = "stopped";
    await this.#connecting?.catch(() => undefined);
    await this.disconnect();
  }

  /** Connects when idle, waits out a retry pause, and answers with the ready client. */
  private async ready(signal?: AbortSignal): Promise<Client> {
    for (;;) {
      switch (this.#state) {
        case "ready":
          if (this.#client !== undefined) return this.#client;
          this.#state = "idle";
          continue;
        case "stopped":
          throw this.serverError(
            "its tool was stopped (the plugin was removed or updated, or oz0 is shutting down)",
          );
        case "connecting":
          await this.#connecting;
          continue;
        case "retrying": {
          const wait = this.#retryAt - Date.now();
          // A short pause is waited out, so one crash costs a caller nothing; during a long
          // one (a server failing again and again) callers learn why at once.
          if (wait > MAX_RETRY_WAIT_MS) {
            const seconds = Math.ceil(wait / 1000);
            throw this.serverError(
              `failed ${this.#failures} times in a row (last: ${this.#lastError ?? "unknown"}); oz0 tries it again in ${seconds} s`,
            );
          }
          if (wait > 0) await sleep(wait, signal);
          if (this.#state === "retrying") this.#state = "idle";
          continue;
        }
        case "idle":
          this.#connecting = this.connect();
          try {
            return await this.#connecting;
          } finally {
            this.#connecting = undefined;
          }
      }
    }
  }

  private async connect(): Promise<Client> {
    this.#state = "connecting";
    this.#starts += 1;
    this.#stderr = "";
    const sdk = await clientSdk();
    const client = new sdk.Client(MCP_CLIENT_INFO, {
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } },
    });
    this.serveRequests(client);
    const transport = this.transport(sdk);
    try {
      await client.connect(transport, { timeout: this.#options.timings.connectTimeoutMs });
      this.observe(transport);
      this.#client = client;
      this.#transport = transport;
      this.#listing = await this.list(client);
    } catch (error) {
      await client.close().catch(() => undefined);
      this.#client = undefined;
      this.#transport = undefined;
      // A login is a person's to give, not a failing server's: no pause before the next try.
      const login = authRequired(error);
      if (login !== undefined) {
        if (this.#state === "connecting") this.#state = "idle";
        throw login;
      }
      const how = this.endpoint.transport.kind === "http" ? "could not be reached" : "could not be started";
      const failure = this.serverError(`${how}: ${causeOf(error)}`);
      this.failed(`${how}: ${causeOf(error)}`);
      throw failure;
    }
    // stop() may have come while the server started.
    if (this.state === "stopped") {
      await this.disconnect();
      throw this.serverError("was stopped while it started");
    }
    // Set after the handshake so a close during it counts as a failed start, not a crash.
    client.onclose = () => this.closed(client);
    this.#state = "ready";
    this.#lastError = null;
    return client;
  }

  private transport(sdk: ClientSdk): Transport {
    const spec = this.endpoint.transport;
    if (spec.kind === "http") {
      const url = new URL(spec.url);
      const oauth = this.#options.oauth?.(this.endpoint);
      return new sdk.StreamableHTTPClientTransport(url, {
        requestInit: { headers: { ...spec.headers } },
        // A server that answers 401 gets OAuth (discovery, registration, PKCE, refresh).
        ...(oauth === undefined
          ? {}
          : { fetch: sdk.oauth.oauthFetch(new sdk.oauth.StoredOAuthProvider(oauth), url) }),
      });
    }
    // The SDK's stdio transport, whose close also ends the processes the server started.
    const transport = new sdk.LocalServerTransport({
      command: spec.command,
      args: [...spec.args],
      env: { ...spec.env },
      cwd: spec.cwd,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  /**
   * What oz0 answers when the server asks something of it: roots, sampling and elicitation go
   * to the host of the call in flight, and log messages to every call in flight (the server is
   * one per tenant and tool, so they are all the same tenant's).
   */
  private serveRequests(client: Client): void {
    const {
      CreateMessageRequestSchema,
      ElicitRequestSchema,
      ListRootsRequestSchema,
      LoggingMessageNotificationSchema,
      ToolListChangedNotificationSchema,
    } = startedSdk().types;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.roots() }));
    // Handled here rather than by the SDK's debounced listChanged option, so a use right after
    // the call that changed the list (a job's next step) waits for the new list instead of
    // racing it.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const refreshing = (this.#refreshing ?? Promise.resolve()).then(() => this.refresh());
      this.#refreshing = refreshing;
      void refreshing.finally(() => {
        if (this.#refreshing === refreshing) this.#refreshing = undefined;
      });
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const host = this.askingHost("sampling/createMessage");
      if (host.sample === undefined) throw refused("sampling/createMessage", host.refusal?.sampling);
      const asked = samplingRequestOf(request.params);
      const reply = await host.sample(this.endpoint.address, asked, extra.signal);
      return {
        model: reply.model,
        role: "assistant" as const,
        content: { type: "text" as const, text: reply.text },
        stopReason: reply.stopReason,
      };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const host = this.askingHost("elicitation/create");
      if (request.params.mode === "url") {
        throw refused(
          "elicitation/create",
          "oz0 answers elicitation in form mode only; a URL elicitation would send a person to a page oz0 cannot vouch for",
        );
      }
      if (host.elicit === undefined) throw refused("elicitation/create", host.refusal?.elicitation);
      const params = request.params as { message: string; requestedSchema: Record<string, unknown> };
      const answer = await host.elicit(
        this.endpoint.address,
        { message: this.endpoint.redactor.text(params.message), requestedSchema: params.requestedSchema },
        extra.signal,
      );
      return { action: answer.action, ...(answer.content === undefined ? {} : { content: answer.content }) };
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      const message = {
        level,
        ...(logger === undefined ? {} : { logger }),
        data: this.endpoint.redactor.json(data),
      };
      for (const host of new Set(this.#inFlight.values())) host.log?.(this.endpoint.address, message);
    });
  }

  /**
   * Watches the messages themselves for progress: the SDK runs notification handlers a tick
   * after it reads them, so a call's last progress notification, read in the same chunk as its
   * answer, reaches no handler. The marker a call's request carries ties the progress token the
   * SDK gives it to the call; it is taken off before the request goes out.
   */
  private observe(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
      const marker = meta?.[CALL_MARKER];
      if (meta === undefined || typeof marker !== "string") return send(message, options);
      const { [CALL_MARKER]: _marker, ...rest } = meta;
      const token = rest.progressToken as string | number | undefined;
      if (token !== undefined) this.#progressTokens.set(token, marker);
      const params = { ...(message as { params: Record<string, unknown> }).params, _meta: rest };
      return send({ ...message, params } as typeof message, options);
    };
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const progress = progressIn(message);
      if (progress !== undefined) {
        const marker = this.#progressTokens.get(progress.token);
        const listener = marker === undefined ? undefined : this.#progressOf.get(marker);
        listener?.({
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
          ...(progress.message === undefined
            ? {}
            : { message: this.endpoint.redactor.text(progress.message) }),
        });
      }
      receive?.(message, extra);
    };
  }

  /** The roots of the calls in flight, each folder once, as `file://` URIs. */
  private roots(): { uri: string; name: string }[] {
    const seen = new Map<string, string>();
    for (const host of this.#inFlight.values()) {
      for (const root of host.roots) if (!seen.has(root.path)) seen.set(root.path, root.name);
    }
    return [...seen].map(([path, name]) => ({ uri: pathToFileURL(path).href, name }));
  }

  /** Tells the server its roots changed when the calls in flight changed them. */
  private rootsChanged(client: Client): void {
    const key = JSON.stringify(this.roots());
    if (key === this.#rootsKey) return;
    this.#rootsKey = key;
    void client.sendRootsListChanged().catch(() => undefined);
  }

  /**
   * The host a server's request is for: the one job with calls in flight. The protocol does not
   * say which call a request belongs to, so with several jobs' calls in flight it is refused
   * rather than served (and paid for) by the wrong job.
   */
  private askingHost(method: string): McpCallHost {
    const hosts = [...this.#inFlight.values()];
    const jobs = new Set(hosts.map((host) => host.job));
    if (hosts.length === 0) {
      throw refused(
        method,
        `oz0 serves it only while a job's call to ${this.endpoint.address} is in flight, and none is`,
      );
    }
    if (jobs.size > 1) {
      throw refused(
        method,
        `calls of ${jobs.size} jobs to ${this.endpoint.address} are in flight, and the request does not say which it is for`,
      );
    }
    return hosts[0]!;
  }

  /** The transport closed: a crash unless oz0 closed it. */
  private closed(client: Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#transport = undefined;
    if (this.#state === "stopped") return;
    this.failed("the server stopped");
  }

  /** Counts a failure (`what` happened to the server) and sets the pause before the next start. */
  private failed(what: string): void {
    this.#failures += 1;
    this.#lastError = this.endpoint.redactor.text(what);
    const pause = Math.min(
      this.#options.timings.firstRetryMs * 2 ** (this.#failures - 1),
      this.#options.timings.maxRetryMs,
    );
    this.#retryAt = Date.now() + pause;
    if (this.#state !== "stopped") this.#state = "retrying";
  }

  private async disconnect(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    if (transport !== undefined && transport instanceof startedSdk().StreamableHTTPClientTransport) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client?.close().catch(() => undefined);
  }

  /** Lists the tools again after the server said they changed. */
  private async refresh(): Promise<void> {
    const client = this.#client;
    // During the handshake too: a server may change its list right after `initialized`.
    if (client === undefined || (this.#state !== "ready" && this.#state !== "connecting")) return;
    try {
      this.#listing = await this.list(client);
    } catch {
      // The server is going away; the next use starts it again and lists afresh.
      return;
    }
    this.#options.onToolsChanged?.(this);
  }

  private async list(client: Client): Promise<McpListing> {
    const functions: McpFunction[] = [];
    const leftOut: McpLeftOut[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const answer = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.#options.timings.connectTimeoutMs,
      });
      for (const tool of answer.tools) {
        const listed = offerable(tool);
        if ("reason" in listed) leftOut.push(listed);
        else functions.push(listed);
      }
      cursor = answer.nextCursor;
      if (cursor === undefined) break;
    }
    return { functions, leftOut };
  }

  private callError(name: string, error: unknown): Oz0Error {
    const { ErrorCode, McpError } = startedSdk().types;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const seconds = Math.round(this.#options.timings.callTimeoutMs / 1000);
      return this.serverError(`did not answer the call to ${name} within ${seconds} s`);
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      // The server is alive and refused the request itself (an unknown tool, bad parameters).
      const text = this.endpoint.redactor.text(error.message);
      return new Oz0Error(
        "MCP_TOOL_ERROR",
        `${this.endpoint.address}.${name} was refused by its server: ${text}`,
        {
          data: { address: `${this.endpoint.address}.${name}`, content: [{ type: "text", text }] },
        },
      );
    }
    // The connection broke: the process died, or the remote server went away.
    if (this.#state === "ready") {
      void this.disconnect();
      this.failed("the server stopped during a call");
    }
    return this.serverError(
      `stopped during the call to ${name} (${causeOf(error)}); oz0 starts it again at the next call`,
    );
  }

  /** MCP_SERVER_ERROR about this server, with the tail of its stderr, secrets redacted. */
  private serverError(what: string): Oz0Error {
    const { address, server, redactor } = this.endpoint;
    const stderr = this.#stderr.trim();
    const tail = stderr === "" ? "" : `; its last output: ${stderr.split("\n").slice(-5).join(" | ")}`;
    const message = redactor.text(`the MCP server of ${address} (${server}) ${what}${tail}`);
    return new Oz0Error("MCP_SERVER_ERROR", message, {
      data: { tool: address, server: redactor.text(server), cause: redactor.text(what) },
    });
  }
}

/** A listed tool as a function oz0 can offer, or why it cannot be one. */
function offerable(tool: {
  readonly name: string;
  readonly description?: string | undefined;
  readonly title?: string | undefined;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly execution?: { readonly taskSupport?: string | undefined } | undefined;
}): McpFunction | McpLeftOut {
  const problem = nameProblem("function", tool.name);
  if (problem !== undefined) return { name: tool.name, reason: problem };
  if (tool.execution?.taskSupport === "required") {
    return { name: tool.name, reason: "it runs only as an MCP task, which oz0 does not start" };
  }
  // A draft-07 `$schema` would make the 2020-12 validator refuse the whole schema.
  const { $schema: _dialect, ...schema } = tool.inputSchema;
  const inputSchema = { ...schema, type: "object" } as JsonSchemaObject;
  try {
    argumentIssues(inputSchema, {});
  } catch (error) {
    return { name: tool.name, reason: `its input schema does not compile: ${causeOf(error)}` };
  }
  const description = tool.description?.trim() || tool.title?.trim() || `The MCP tool ${tool.name}.`;
  return { name: tool.name, description, inputSchema };
}

/** The MCP_AUTH_REQUIRED behind `error`, which the SDK may have wrapped. */
function authRequired(error: unknown): Oz0Error | undefined {
  for (let cause = error, depth = 0; cause !== undefined && depth < 5; depth += 1) {
    if (isOz0Error(cause) && cause.code === "MCP_AUTH_REQUIRED") return cause;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return undefined;
}

/** The JSON-RPC error a server gets for a request oz0 does not serve, saying why. */
function refused(method: string, why: string | undefined): Error {
  const { ErrorCode, McpError } = startedSdk().types;
  return new McpError(
    ErrorCode.InvalidRequest,
    `oz0 refuses ${method}: ${why ?? "this call was not made by a job, so no model or person stands behind it"}`,
  );
}

function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
