// The capability specs a plugin registers with the host (spec/host-capabilities.txt), and
// the contexts the host hands their `build` functions. Types only: the runtime implements
// the services behind them (files, processes, secrets, memory storage).
import type { SurfaceEnvelope, SurfaceResponse, SurfaceStartContext } from "../contracts/surface.js";
import type { HookName } from "../hooks/catalogue.js";
import type { HookHandler, HookHandlers, HookPayload } from "../hooks/payloads.js";
import type { FunctionInput, JsonSchemaObject } from "./input-schema.js";

type Awaitable<T> = T | Promise<T>;

/** A plugin's configuration, as its admin spec defines it. */
export type PluginConfig = Readonly<Record<string, unknown>>;

/** What every capability spec carries. */
export interface SpecBase {
  /** The plugin the spec belongs to. The host fills it in; a different value is refused. */
  readonly pluginId?: string;
}

/** A spec as the host recorded it: its plugin is always known. */
export type Registered<S> = S & { readonly pluginId: string };

// ── Admin: operator-facing config and status ────────────────────────────────────────────

export interface AdminIssue {
  /** Dotted path of the config field, `""` for the whole config. */
  readonly path: string;
  readonly message: string;
}

export interface AdminStatus {
  readonly state: "ok" | "degraded" | "error" | "off";
  readonly message?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface AdminStatusContext<Config extends PluginConfig = PluginConfig> {
  readonly pluginId: string;
  readonly config: Config;
}

/**
 * Config and status for operators. Most managed plugins register one for config and one
 * for status, so `name` defaults to `status` for a spec with only `status`, else `config`.
 */
export interface AdminSpec<Config extends PluginConfig = PluginConfig> extends SpecBase {
  readonly name?: string;
  readonly defaultConfig?: Config;
  /** JSON Schema of the config; the console draws the admin form from it. */
  readonly schema?: JsonSchemaObject;
  /** Server-side validation: every problem found, none when the config is valid. */
  validate?(config: Config): Awaitable<readonly AdminIssue[]>;
  /** The config with its secrets masked, for display and logs. */
  redact?(config: Config): Config;
  /** Live status output. */
  status?(ctx: AdminStatusContext<Config>): Awaitable<AdminStatus>;
}

// ── Tools ───────────────────────────────────────────────────────────────────────────────

/** The folders a tool works with. Relative paths resolve from `projectRoot`, else `agentRoot`. */
export interface ToolPaths {
  /** oz0's home: `OZ0_HOME`, `~/.oz0` by default. */
  readonly home: string;
  /** The folder of the person the job runs for. */
  readonly userRoot: string;
  /** Where managed tool binaries are installed. */
  readonly toolsBinDir: string;
  /** The agent's working folder. */
  readonly agentRoot: string;
  /** The attached project, if any; project-aware tools resolve relative paths from it. */
  readonly projectRoot?: string;
}

export interface ReadFileOptions {
  readonly encoding?: "utf8" | "base64";
  /** Refuse a larger file; the runtime's own cap applies when this is higher. */
  readonly maxBytes?: number;
}

export interface WriteFileOptions {
  readonly encoding?: "utf8" | "base64";
  readonly append?: boolean;
  /** Create missing parent folders. */
  readonly makeDirs?: boolean;
}

export interface ListDirOptions {
  readonly recursive?: boolean;
  readonly maxEntries?: number;
}

export interface DirEntry {
  readonly name: string;
  /** The path as the tool would pass it back to the runtime. */
  readonly path: string;
  readonly type: "file" | "directory" | "symlink" | "other";
  readonly size?: number;
}

export interface ExecOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly stdin?: string;
  /** Kill the process after this long; the runtime's own cap applies when this is higher. */
  readonly timeoutMs?: number;
  /** Keep at most this much of stdout and of stderr; the runtime's cap applies when higher. */
  readonly maxOutputBytes?: number;
  readonly signal?: AbortSignal;
}

export interface ExecResult {
  /** `null` when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Output went over `maxOutputBytes` and was cut. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

/**
 * The tool-facing file and process surface. The runner decides whether an operation is
 * local, sandboxed or otherwise mediated; it confines paths to the tool's roots and bounds
 * every process, so tools use this instead of `node:fs` or `node:child_process`.
 */
export interface ToolRuntime {
  readFile(path: string, options?: ReadFileOptions): Promise<string>;
  writeFile(path: string, content: string, options?: WriteFileOptions): Promise<void>;
  listDir(path: string, options?: ListDirOptions): Promise<readonly DirEntry[]>;
  exec(command: string, args?: readonly string[], options?: ExecOptions): Promise<ExecResult>;
}

export interface ToolContext {
  readonly pluginId: string;
  readonly tenant: string;
  /** The OS the tool runs on, as `process.platform` names it (`linux`, `darwin`, `win32`). */
  readonly platform: string;
  readonly paths: ToolPaths;
  readonly runtime: ToolRuntime;
  readonly config: PluginConfig;
  /**
   * The memory providers this plugin registered with `addMemory`, built for the tenant:
   * `memory()` when it registered one, `memory(name)` to pick one by name. Absent where a tool
   * is only built to list its functions (install, lint), so call it inside `run`.
   */
  readonly memory?: (name?: string) => Promise<MemoryProvider>;
  /**
   * This plugin's versioned records in the tenant, kept under the tenant's retention, holds and
   * erasure. Absent where a tool is only built to list its functions (install, lint).
   */
  readonly records?: RecordsApi;
}

/** One version of a record. */
export interface StoredRecord {
  readonly kind: string;
  readonly key: string;
  /** 1 for the first put of the key, then one more each put. */
  readonly version: number;
  /** Who or what the record is about, as `oz0 records erase --subject` finds it. */
  readonly subject?: string;
  readonly value: unknown;
  /** When this version was put, epoch milliseconds. */
  readonly createdAt: number;
}

/**
 * Versioned records of a plugin's tools: every put of a key keeps a new version. A kind is a
 * name of the plugin's (`ticket`, `invoice`); a tenant sets how long it keeps each kind, holds
 * what must not go, and erases everything about a subject.
 */
export interface RecordsApi {
  put(
    kind: string,
    key: string,
    value: unknown,
    options?: { readonly subject?: string },
  ): Promise<StoredRecord>;
  /** The latest version, or the one asked for; undefined when there is none (or it was erased). */
  get(kind: string, key: string, options?: { readonly version?: number }): Promise<StoredRecord | undefined>;
  /** The latest version of each key of a kind, newest first, optionally only those about a subject. */
  list(
    kind: string,
    options?: { readonly subject?: string; readonly limit?: number },
  ): Promise<readonly StoredRecord[]>;
  /** Every version of a key, oldest first. */
  history(kind: string, key: string): Promise<readonly StoredRecord[]>;
}

/** One call of a function: who calls, in which job, and how to stop. */
export interface FunctionCall {
  readonly tenant: string;
  readonly jobId: string;
  readonly callId: string;
  /** The same for every attempt of this call: pass it to outside APIs to avoid doing a thing twice. */
  readonly idempotencyKey: string;
  /** The calling agent by address (`<plugin>/<agent>`); absent for a call by hand or from a flow. */
  readonly agent?: string;
  /** `<plugin>/<tool>.<function>`. */
  readonly address: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Aborted when the job is cancelled, killed or out of time. */
  readonly signal: AbortSignal;
}

/**
 * One function of a tool. With a zod `input`, `run` gets the parsed arguments (defaults
 * applied); with a JSON Schema, the arguments the runtime checked against it.
 */
export interface FunctionSpec<Args = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly input: FunctionInput<Args>;
  run(args: Args, call: FunctionCall): unknown;
}

export interface ToolBuild {
  readonly functions: readonly FunctionSpec[];
}

/** An agent-callable tool: a tool ID whose functions come from `build`. */
export interface ToolSpec extends SpecBase {
  /** The tool ID, unique per tenant. */
  readonly name: string;
  readonly description: string;
  /** Core: built even when the plugin is not enabled. */
  readonly required?: boolean;
  build(ctx: ToolContext): Awaitable<ToolBuild>;
}

// ── Providers ───────────────────────────────────────────────────────────────────────────

export interface ProviderMeta {
  /** The provider's name as people read it. */
  readonly displayName: string;
  readonly defaultUrl?: string;
}

export interface ProviderContext {
  readonly pluginId: string;
  readonly config: PluginConfig;
  /** A key the tenant stored for this plugin (`OPENAI_API_KEY`, …). */
  secret(name: string): Promise<string | undefined>;
}

/** What a provider builds: an AI SDK provider, or anything else with `languageModel(id)`. */
export interface ModelProvider {
  languageModel(modelId: string): unknown;
}

export interface ProviderSpec extends SpecBase {
  /** The provider ID in `provider:model`. */
  readonly name: string;
  readonly meta: ProviderMeta;
  build(ctx: ProviderContext): Awaitable<ModelProvider>;
}

// ── Channels ────────────────────────────────────────────────────────────────────────────

/**
 * What a person must act on, as a notification carries it for a surface that draws controls
 * (Slack's approve and deny buttons): a call held for approval, or a job's question.
 */
export type ChannelNotificationAction =
  | {
      readonly kind: "approval";
      readonly approval: string;
      readonly job: string;
      readonly agent: string;
      /** The held call: its ID in the job, the function by address, and its arguments as the job's history has them (secrets redacted). */
      readonly call: { readonly id: string; readonly address: string; readonly args: unknown };
      /** The tool policy rule that held it. */
      readonly rule: string;
    }
  | {
      readonly kind: "question";
      readonly job: string;
      readonly agent: string;
      readonly callId: string;
      readonly question: string;
    };

/**
 * A notification a channel is sent: in a thread whose job waits for a person (through
 * `deliver`, as the response's `notification`), or to the channel's own configured target
 * (through `notify`). `body` says it all as text, with how to answer.
 */
export interface ChannelNotification {
  readonly title: string;
  readonly body: string;
  readonly url?: string;
  readonly level?: "info" | "warning" | "error";
  readonly action?: ChannelNotificationAction;
}

/**
 * A request to the channel's inbound endpoint (`POST /v1/t/{tenant}/channels/{plugin}/{channel}`)
 * exactly as it arrived: no API key is asked for, so `verify` is its only credential.
 */
export interface ChannelRequest {
  /** The headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's exact bytes as text: a signature covers these. */
  readonly body: string;
  /** When it arrived, epoch ms by the database's clock: what a timestamp window is checked against. */
  readonly receivedAt: number;
}

/** Whether a request is the surface's own: refused ones are answered UNAUTHENTICATED with `reason`. */
export type ChannelVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What the endpoint answers at once for an event that is no message (a handshake such as Slack's url_verification). */
export interface ChannelReply {
  readonly reply: unknown;
}

/** A built channel; a SurfaceAdapter is one. */
export interface Channel {
  /**
   * Checks an inbound request's signature (and timestamp window) against the channel's config.
   * A channel without it receives nothing over HTTP: its endpoint refuses every request.
   */
  verify?(request: ChannelRequest): Awaitable<ChannelVerdict>;
  /**
   * Turns a raw outside event (a verified `ChannelRequest`, or what a started adapter hands
   * over) into an envelope; a `ChannelReply` answers a handshake; `undefined` ignores the event.
   */
  ingest?(raw: unknown): Awaitable<SurfaceEnvelope | ChannelReply | undefined>;
  deliver(envelope: SurfaceEnvelope, response: SurfaceResponse): Awaitable<void>;
  /**
   * The agent (`<plugin>/<agent>`) the channel's messages talk to: a thread is one chat with it.
   * Left out, messages only fire the routines of `event: channel:<plugin>/<channel>`.
   */
  readonly agent?: string;
  /**
   * Who a sender is in oz0: the surface's sender ID to an oz0 user name. A decision or answer
   * sent from the channel acts as that user's membership, and one from a sender not listed is
   * refused.
   */
  readonly members?: Readonly<Record<string, string>>;
  /**
   * Sends a notification to the channel's own target (a pager's address, a Slack channel the
   * config names), for a channel whose spec `supportsNotifications` and whose config has them
   * on (`notificationsEnabled`). Throws to fail it: it is retried from the outbox like an answer.
   */
  notify?(notification: ChannelNotification): Awaitable<void>;
  start?(ctx: SurfaceStartContext): Awaitable<void>;
  stop?(): Awaitable<void>;
}

export interface ChannelContext {
  readonly pluginId: string;
  readonly config: PluginConfig;
  /** Hands an envelope to oz0, which starts a job or a chat turn for it. */
  submit(envelope: SurfaceEnvelope): Promise<void>;
}

export interface ChannelSpec extends SpecBase {
  readonly name: string;
  /**
   * Whether the channel takes notifications of what a person must act on (approvals, questions):
   * in the threads whose jobs wait, and through `notify` to its own target. Needs `notificationsEnabled`.
   */
  readonly supportsNotifications?: boolean;
  /** Whether the config has what the channel needs to run; always, when left out. */
  configured?(config: PluginConfig): boolean;
  /** Whether notifications are switched on in the config; only for a channel that supports them. */
  notificationsEnabled?(config: PluginConfig): boolean;
  build(ctx: ChannelContext): Awaitable<Channel>;
}

// ── Hooks ───────────────────────────────────────────────────────────────────────────────

export interface HookContext {
  readonly pluginId: string;
  readonly config: PluginConfig;
}

/** Engine interception, observability, request tracking: handlers by hook name. */
export interface HookSpec extends SpecBase {
  readonly name: string;
  build(ctx: HookContext): Awaitable<HookHandlers>;
}

// ── Memory ──────────────────────────────────────────────────────────────────────────────

export interface MemoryEntryInput {
  /** Left out, the provider picks one. */
  readonly key?: string;
  readonly content: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface MemoryEntry {
  readonly key: string;
  readonly content: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface MemoryHit extends MemoryEntry {
  /** Higher is closer; the scale is the provider's. */
  readonly score: number;
}

/** What a memory provider offers agents and the `pre_memory_store` hook guards. */
export interface MemoryProvider {
  store(entry: MemoryEntryInput): Awaitable<MemoryEntry>;
  get(key: string): Awaitable<MemoryEntry | undefined>;
  search(query: string, options?: { readonly limit?: number }): Awaitable<readonly MemoryHit[]>;
  forget?(key: string): Awaitable<boolean>;
}

/** The plugin's own storage in the tenant's database: collections of JSON values by key. */
export interface MemoryDatabase {
  get(collection: string, key: string): Promise<unknown>;
  put(collection: string, key: string, value: unknown): Promise<void>;
  delete(collection: string, key: string): Promise<boolean>;
  list(
    collection: string,
    options?: { readonly prefix?: string; readonly limit?: number },
  ): Promise<readonly { readonly key: string; readonly value: unknown }[]>;
  /**
   * Full-text search over a collection, best match first: the words of `query` against the
   * text of each value (a string, or every string inside an object or list), stemmed, so
   * `museums` finds `museum`. A value matches when it has any of the words; `score` is higher
   * for closer matches, on the database's own scale.
   */
  search(
    collection: string,
    query: string,
    options?: { readonly limit?: number },
  ): Promise<readonly { readonly key: string; readonly value: unknown; readonly score: number }[]>;
}

/** Summarizes text with the tenant's model; memory providers compact what they keep. */
export type Summarizer = (
  text: string,
  options?: { readonly maxTokens?: number; readonly instructions?: string },
) => Promise<string>;

/** The one context with a database and a model: memory needs both to be built. */
export interface MemoryContext {
  readonly pluginId: string;
  readonly config: PluginConfig;
  readonly db: MemoryDatabase;
  readonly summarizer: Summarizer;
}

export interface MemorySpec extends SpecBase {
  readonly name: string;
  build(ctx: MemoryContext): Awaitable<MemoryProvider>;
}

// ── Runtimes ────────────────────────────────────────────────────────────────────────────

export interface RuntimeContext {
  readonly pluginId: string;
  readonly config: PluginConfig;
  /** Aborted when the host shuts the runtime down. */
  readonly signal: AbortSignal;
  /**
   * Tells the host the runtime died after it started (its connection dropped, its loop threw):
   * the host stops it and starts a new one after a backoff, as when start() throws.
   */
  fail(error?: unknown): void;
}

/**
 * What a runtime's build returns. `start()` resolves once it is up (the long-lived work goes on
 * after it, until `stop()`); a start() that throws is a death, restarted with backoff.
 */
export interface RuntimeInstance {
  start(): Awaitable<void>;
  stop(): Awaitable<void>;
  /** Applies a changed config without a restart; left out, the host stops and starts. */
  reconcile?(config: PluginConfig): Awaitable<void>;
}

/** A host-managed long-lived runtime, reconciled from the plugin's desired state. */
export interface RuntimeSpec extends SpecBase {
  readonly name: string;
  build(ctx: RuntimeContext): Awaitable<RuntimeInstance>;
}

// ── Harnesses ───────────────────────────────────────────────────────────────────────────

/** How oz0 talks to a harness process: the Agent Client Protocol, or JSON lines (docs/runtimes.md#harnesses). */
export type HarnessProtocol = "acp" | "jsonl";

/**
 * An external agent process that agents with `runtime: harness:<name>` run on. oz0 starts it
 * for a job (one process per job), speaks `protocol` with it over its stdin and stdout, and
 * governs what it does: its tool calls run through the job.
 */
export interface HarnessSpec extends SpecBase {
  /** The `<name>` of `runtime: harness:<name>`. */
  readonly name: string;
  readonly protocol: HarnessProtocol;
  /** The program to start: an absolute path, or a name looked up on PATH. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * The process's whole environment besides PATH and HOME: nothing else of oz0's environment
   * is passed on, so a key it needs is given here (or by the harness's own configuration).
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * ACP only. `asks`: in its own mode the harness asks (`session/request_permission`) before
   * each tool call that changes anything, so every such call reaches a person or a rule; an
   * agent's `harness.mode` other than `mode`, or any `harness.config`, voids it.
   */
  readonly acp?: { readonly asks?: boolean; readonly mode?: string };
}

// ── Prompt inventory and system prompt ──────────────────────────────────────────────────

export interface PromptInventoryContext {
  readonly pluginId: string;
  readonly tenant: string;
  readonly jobId?: string;
  readonly agent?: string;
}

export interface PromptInventoryTool {
  /** `<tool>.<function>`. */
  readonly name: string;
  readonly description: string;
  readonly input?: JsonSchemaObject;
}

/** Tools a plugin discovers at run time (an MCP server's), listed for the model. */
export interface PromptInventorySpec extends SpecBase {
  /** `inventory` when left out. */
  readonly name?: string;
  getTools(ctx: PromptInventoryContext): Awaitable<readonly PromptInventoryTool[]>;
}

export interface SystemPromptContext {
  readonly pluginId: string;
  readonly tenant: string;
  readonly jobId: string;
  readonly agent: string;
  readonly config: PluginConfig;
}

export interface SystemPromptSection {
  readonly title?: string;
  readonly content: string;
}

export interface SystemPromptSpec extends SpecBase {
  readonly name: string;
  /** Core: contributed even when the plugin is not enabled. */
  readonly required?: boolean;
  /** The section to add; `undefined` adds nothing to this prompt. */
  build(ctx: SystemPromptContext): Awaitable<string | SystemPromptSection | undefined>;
}

// ── Lifecycle: handlers around runs and tool calls ──────────────────────────────────────

/** What a lifecycle spec's `run` gets beside the payload: the plugin and its config in the tenant. */
export interface LifecycleContext {
  readonly pluginId: string;
  /** The operator's config of the plugin in the job's tenant (secrets decrypted). */
  readonly config: PluginConfig;
}

/**
 * A handler on one lifecycle hook. Lower `order` runs first (0 when left out; ties keep
 * registration order). To refuse, `run` throws PolicyViolation. The payload is the hook's, as
 * every handler of the hook gets it; the context is the plugin's own, kept out of the payload
 * so a modifying hook never merges it into what the next handler sees.
 */
export interface LifecycleSpec<H extends HookName> extends SpecBase {
  readonly name: string;
  readonly order?: number;
  /** Core: runs even when the plugin is not enabled. */
  readonly required?: boolean;
  run(payload: HookPayload<H>, ctx: LifecycleContext): ReturnType<HookHandler<H>>;
}

/** Before a run: rewrite the input, or refuse the run. Runs on `pre_execution`. */
export type BeforeRunSpec = LifecycleSpec<"pre_execution">;
/** Before a tool call: rewrite its arguments, or refuse it. Runs on `pre_tool_call`. */
export type BeforeToolCallSpec = LifecycleSpec<"pre_tool_call">;
/** After a tool result: rewrite the result. Runs on `post_tool_call`. */
export type AfterToolResultSpec = LifecycleSpec<"post_tool_call">;

export type BeforeRunPayload = HookPayload<"pre_execution">;
export type BeforeToolCallPayload = HookPayload<"pre_tool_call">;
export type AfterToolResultPayload = HookPayload<"post_tool_call">;
