// oz0 as an MCP server: the functions an agent may call (or a tenant's whole catalog) offered to
// any MCP client under the names a model sees, each call made on oz0's one dispatch path (its
// arguments checked, the tenant's policy and kill switches, hooks) and recorded as a job. The
// list follows what is installed: a plugin installed or removed (by any process), or an MCP
// server behind a served tool changing its tools, sends `notifications/tools/list_changed`.
// Beside tools: resources (jobs' outputs and traces, skills), prompts (agents), completions of
// their arguments, and log messages about each call at the level the client set.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isOz0Error } from "@oz0/sdk";
import type { Catalog } from "../../catalog/index.js";
import type { JobStore } from "../../jobs/index.js";
import { assertAgentRuns } from "../../policy/index.js";
import type { Store } from "../../store/index.js";
import { tracedMcpCall } from "../../telemetry/index.js";
import type { CallableFunction, ToolCaller } from "../../tools/index.js";
import { withMcpHost } from "../../tools/index.js";
import { MCP_CLIENT_INFO } from "../connection.js";
import type { McpManager } from "../manager.js";
import { holdForApproval } from "./approval.js";
import { CATALOG_CALLER, type CallJobScope, JOB_META_KEY, startCallJob } from "./call-jobs.js";
import { errorResult, toolResult } from "./content.js";
import {
  type ContextScope,
  complete,
  getPrompt,
  listPrompts,
  listSkills,
  readResource,
  resourceTemplates,
} from "./context.js";
import { type ExposedFunctions, exposedFunctions, servedAgent } from "./exposed.js";
import { type ClientForward, forwardingHost } from "./forward.js";

/** What the server needs of the runtime. */
export interface McpServeDeps {
  readonly store: Store;
  readonly catalog: Catalog;
  readonly home: string;
  /** The dispatch path with the runtime's interceptors. */
  readonly tools: ToolCaller;
  /** Where each call's job is kept. */
  readonly jobs: JobStore;
  readonly mcp: McpManager;
}

export interface McpServeOptions {
  readonly tenant: string;
  /** Serve the functions this agent may call, as it (`<plugin>/<agent>`); the tenant's catalog when left out. */
  readonly agent?: string | undefined;
  /** How often to look for plugins installed or removed by another process, in ms. */
  readonly watchMs?: number;
  /**
   * Who the clients call as, recorded in each call's job before the client's name
   * (`<actor> via mcp:<client>`); the client's name alone when left out.
   */
  readonly actor?: string | undefined;
}

const DEFAULT_WATCH_MS = 1_000;

export class OzMcpServer {
  readonly tenant: string;
  /** The served agent by address, or undefined for the tenant's catalog. */
  readonly agent: string | undefined;
  readonly #deps: McpServeDeps;
  readonly #actor: string | undefined;
  readonly #scope: { readonly plugin: string; readonly name: string } | undefined;
  readonly #sessions = new Set<Server>();
  readonly #stopWatching: () => void;
  #exposed: Promise<ExposedFunctions> | undefined;
  #names = "";
  #changes = -1;

  private constructor(
    deps: McpServeDeps,
    tenant: string,
    scope: { readonly plugin: string; readonly name: string } | undefined,
    watchMs: number,
    actor: string | undefined,
  ) {
    this.#deps = deps;
    this.#actor = actor;
    this.tenant = tenant;
    this.#scope = scope;
    this.agent = scope === undefined ? undefined : `${scope.plugin}/${scope.name}`;
    const unsubscribe = deps.mcp.onToolsChanged((change) => {
      if (change.tenant === tenant) void this.recheck();
    });
    const timer = setInterval(() => void this.watch(), watchMs);
    timer.unref();
    this.#stopWatching = () => {
      unsubscribe();
      clearInterval(timer);
    };
  }

  /**
   * A server for `options.tenant`, checking the agent's address against its owner first
   * (`OWNER_MISMATCH`, `NOT_FOUND`) so a mistake is reported before any client connects.
   */
  static async open(deps: McpServeDeps, options: McpServeOptions): Promise<OzMcpServer> {
    const scope =
      options.agent === undefined
        ? undefined
        : await servedAgent(deps.catalog, options.tenant, options.agent);
    const server = new OzMcpServer(
      deps,
      options.tenant,
      scope,
      options.watchMs ?? DEFAULT_WATCH_MS,
      options.actor,
    );
    try {
      await server.watch();
      await server.functions();
    } catch (error) {
      await server.close();
      throw error;
    }
    return server;
  }

  /** The functions served now, by the name a client calls them by. */
  async functions(): Promise<ExposedFunctions> {
    this.#exposed ??= exposedFunctions(this.#deps.catalog, this.#deps.home, {
      tenant: this.tenant,
      agent: this.#scope,
    });
    const exposed = this.#exposed;
    try {
      const found = await exposed;
      this.#names = [...found.functions.keys()].sort().join("\n");
      return found;
    } catch (error) {
      if (this.#exposed === exposed) this.#exposed = undefined;
      throw error;
    }
  }

  /** A new MCP server for one client session; close the session to let it go. */
  session(): Server {
    const server = new Server(
      { name: "oz0", version: MCP_CLIENT_INFO.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { listChanged: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
        },
        instructions:
          this.agent === undefined
            ? `The functions of oz0 tenant ${this.tenant}. Every call is checked against the tenant's tool policy and kill switches and recorded as a job.`
            : `The functions agent ${this.agent} of oz0 tenant ${this.tenant} may call, called as it. Every call is checked against the tenant's tool policy and kill switches and recorded as a job.`,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const { functions } = await this.functions();
      return {
        tools: [...functions.values()].map((fn) => ({
          name: fn.modelName,
          title: fn.address,
          description: fn.description || `${fn.address}, a function of oz0 tenant ${this.tenant}`,
          inputSchema: { ...fn.inputSchema, type: "object" as const },
        })),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const client = server.getClientVersion()?.name ?? "client";
      const token = request.params._meta?.progressToken;
      let step = 0;
      const progress =
        token === undefined
          ? undefined
          : (message: string) => {
              step += 1;
              return extra.sendNotification({
                method: "notifications/progress",
                params: { progressToken: token, progress: step, message },
              });
            };
      const traced = { tool: request.params.name, requestId: extra.requestId, sessionId: extra.sessionId };
      return tracedMcpCall(
        this.#deps.tools.telemetry,
        { ...traced, meta: request.params._meta },
        (traceparent) =>
          this.call(request.params.name, request.params.arguments ?? {}, {
            signal: extra.signal,
            by: this.#actor === undefined ? `mcp:${client}` : `${this.#actor} via mcp:${client}`,
            progress,
            log: (level, data) =>
              server
                .sendLoggingMessage({ level, logger: "oz0", data }, extra.sessionId)
                .catch(() => undefined),
            forward: {
              progress,
              // A server's log message keeps its level and logger on the way through.
              log: (message) =>
                server
                  .sendLoggingMessage({ ...message, level: message.level as LoggingLevel }, extra.sessionId)
                  .catch(() => undefined),
              elicit:
                server.getClientCapabilities()?.elicitation === undefined
                  ? undefined
                  : async (asked, signal) => {
                      const answer = await server.elicitInput(
                        {
                          mode: "form",
                          message: asked.message,
                          requestedSchema: asked.requestedSchema as never,
                        },
                        { signal },
                      );
                      return {
                        action: answer.action,
                        ...(answer.content === undefined ? {} : { content: answer.content }),
                      };
                    },
            },
            traceparent,
          }),
      );
    });
    const scope: ContextScope = { tenant: this.tenant, agent: this.#scope };
    const { catalog, jobs } = this.#deps;
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: await listSkills(catalog, scope),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: resourceTemplates(),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
      readResource(catalog, jobs, scope, request.params.uri),
    );
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: await listPrompts(catalog, scope),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) =>
      getPrompt(catalog, scope, request.params.name, request.params.arguments ?? {}),
    );
    server.setRequestHandler(CompleteRequestSchema, async (request) =>
      complete(catalog, jobs, scope, request.params.ref, request.params.argument),
    );
    this.#sessions.add(server);
    server.onclose = () => this.#sessions.delete(server);
    return server;
  }

  /**
   * Calls the function a client knows as `name`, as a job; the answer is what the client gets.
   * A call an ask rule holds waits here for a person's decision.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    request: {
      readonly signal: AbortSignal;
      /** Who calls, as the job records it: `mcp:<client name>`, after the actor when there is one. */
      readonly by: string;
      readonly progress?: ((message: string) => Promise<void>) | undefined;
      /** Tells the client about the call (a log message), at the level it set. */
      readonly log?: ((level: LoggingLevel, data: unknown) => Promise<void>) | undefined;
      /** Where the notifications and requests of an MCP server behind the function go. */
      readonly forward?: ClientForward | undefined;
      /** The request's span, which the call's own span goes under. */
      readonly traceparent?: string | undefined;
    },
  ): Promise<CallToolResult> {
    const { signal, by, traceparent } = request;
    const fn = await this.find(name);
    if (this.agent !== undefined) {
      try {
        await assertAgentRuns(this.#deps.store, this.tenant, this.agent);
      } catch (error) {
        if (!isOz0Error(error)) throw error;
        return errorResult(error.code, error.message);
      }
    }
    const scope: CallJobScope = { tenant: this.tenant, agent: this.#scope, by };
    const started = await startCallJob(this.#deps.jobs, scope, fn, args, signal);
    const job = {
      ...started,
      call: withMcpHost(started.call, forwardingHost(started, request.forward ?? {})),
    };
    const log = request.log ?? (async () => {});
    await log("info", { job: job.id, function: fn.address, event: "started" });
    let outcome = await this.#deps.tools.dispatch(fn, args, job.call, undefined, traceparent);
    if (!outcome.ok && outcome.error.code === "APPROVAL_REQUIRED") {
      await log("notice", { job: job.id, function: fn.address, event: "waiting for approval" });
      const held = await holdForApproval({
        store: this.#deps.store,
        job,
        fn,
        args,
        caller: this.agent ?? `${CATALOG_CALLER.plugin}/${CATALOG_CALLER.name}`,
        signal,
        progress: request.progress,
      });
      if (held === "withdrawn") {
        // Nobody waits for the answer any more: the call never runs, and its job ends cancelled.
        await job.cancel(by);
        return {
          ...errorResult(
            "APPROVAL_REQUIRED",
            `the client stopped waiting before a person approved this call of ${fn.address}; it did not run, and job ${job.id} is cancelled`,
          ),
          _meta: { [JOB_META_KEY]: job.id },
        };
      }
      outcome =
        held === undefined
          ? await this.#deps.tools.dispatch(fn, args, job.call, undefined, traceparent)
          : { ok: false, error: held, ms: outcome.ms };
    }
    outcome = await job.finish(outcome);
    await log(outcome.ok ? "info" : "error", {
      job: job.id,
      function: fn.address,
      event: outcome.ok ? "succeeded" : "failed",
      ...(outcome.ok ? {} : { code: outcome.error.code }),
    });
    return { ...toolResult(outcome), _meta: { [JOB_META_KEY]: job.id } };
  }

  async close(): Promise<void> {
    this.#stopWatching();
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
  }

  private async find(name: string): Promise<CallableFunction> {
    const known = (await this.functions()).functions.get(name);
    if (known !== undefined) return known;
    // Installed since the list was read, perhaps.
    this.#exposed = undefined;
    const exposed = await this.functions();
    const fn = exposed.functions.get(name);
    if (fn !== undefined) return fn;
    const served = this.agent === undefined ? `tenant ${this.tenant}'s catalog` : `agent ${this.agent}`;
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool: ${name}. oz0 serves the functions of ${served}: ${[...exposed.functions.keys()].join(", ") || "none"}.`,
    );
  }

  /** Looks for plugin changes by any process; lists again when there were some. */
  private async watch(): Promise<void> {
    const row = await this.#deps.store.db
      .selectFrom("plugin_changes")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("tenant", "=", this.tenant)
      .executeTakeFirst()
      .catch(() => undefined);
    const changes = Number(row?.seq ?? 0);
    if (changes === this.#changes) return;
    const first = this.#changes === -1;
    this.#changes = changes;
    if (first) return;
    // The agents (prompts) and skills (resources) are the installed plugins': they changed too.
    for (const session of this.#sessions) {
      void session.sendPromptListChanged().catch(() => undefined);
      void session.sendResourceListChanged().catch(() => undefined);
    }
    await this.recheck();
  }

  /** Lists the functions again and tells every client when the names changed. */
  private async recheck(): Promise<void> {
    const before = this.#names;
    this.#exposed = undefined;
    try {
      await this.functions();
    } catch {
      return;
    }
    if (this.#names === before) return;
    for (const session of this.#sessions) void session.sendToolListChanged().catch(() => undefined);
  }
}
