// The runtime: one open store plus the services built on it. The CLI and the server each
// open one and call its services; nothing else holds state.
import { homedir } from "node:os";
import { join } from "node:path";
import { Audit } from "./audit/index.js";
import { ROLES } from "./callers/index.js";
import { Catalog, type DefaultPluginOutcome, defaultPluginDirs, requireTenant } from "./catalog/index.js";
import { ChannelDrainer, type ChannelDrainerOptions, ChannelHost } from "./channels/index.js";
import { type GovernanceEvent, HookBus, storeHookSource } from "./hooks/index.js";
import { Identity, type ThrottleOptions } from "./identity/index.js";
import { Approvals, JobEngine, JobWorker, liveWorkers, type WorkerOptions } from "./jobs/index.js";
import { McpManager } from "./mcp/index.js";
import { Models, SecretStore, TenantSettings } from "./models/index.js";
import { PluginRuntimes } from "./plugin-runtimes/index.js";
import {
  approvalBindingInterceptor,
  governanceInterceptor,
  Inventory,
  KillSwitches,
  ToolPolicy,
} from "./policy/index.js";
import { Routines } from "./routines/index.js";
import { type ChangeListener, SERVICE_ROLES, Services } from "./services/index.js";
import { SkillProposals } from "./skills/index.js";
import { DEFAULT_TENANT, openStore, type Store } from "./store/index.js";
import { Telemetry } from "./telemetry/index.js";
import { ToolCaller } from "./tools/index.js";

export interface RuntimeOptions {
  /** oz0's home folder: the SQLite file and per-tenant files live here. Default `$OZ0_HOME` or `~/.oz0`. */
  readonly home?: string | undefined;
  /** A PostgreSQL URL (`OZ0_DATABASE_URL`); the embedded SQLite store when unset. */
  readonly databaseUrl?: string | undefined;
  /** An in-memory SQLite store, gone on close: for tests. */
  readonly memory?: boolean | undefined;
  /**
   * Plugin folders every tenant gets once when it comes into being: the `default` tenant when
   * the runtime opens, another with its first install. Default `defaultPluginDirs()`: oz0's
   * std library. `[]` gives none.
   */
  readonly defaultPlugins?: readonly string[] | undefined;
  /**
   * An OTLP/HTTP endpoint (`http://127.0.0.1:4318`) to export job runs, model calls and tool
   * calls to as spans; OTEL_EXPORTER_OTLP_ENDPOINT when left out, and no export without either.
   */
  readonly otlpEndpoint?: string | undefined;
  /** The limits on failed sign-ins per source and per user (`THROTTLE_DEFAULTS` when left out). */
  readonly throttle?: ThrottleOptions | undefined;
  /** Told of every change a caller makes through the services: where the audit log attaches. */
  readonly onChange?: ChangeListener | undefined;
  /**
   * How long this process's claims hold a job without a write (`oz0 node --lease`): a node that
   * dies has its jobs taken over after this; 15 s when left out.
   */
  readonly leaseMs?: number | undefined;
}

/** The home folder oz0 uses when none is given: `$OZ0_HOME`, else `~/.oz0`. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.OZ0_HOME?.trim();
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : join(homedir(), ".oz0");
}

export class Runtime {
  readonly home: string;
  readonly store: Store;
  /** The tenants' installed plugins and the owner check. */
  readonly catalog: Catalog;
  /** Model aliases, providers, keys and prices per tenant, and the resolver jobs use. */
  readonly models: Models;
  /** The job engine: starts, runs, resumes and cancels jobs of the catalog's agents. */
  readonly jobs: JobEngine;
  /** Calls a function by hand, through the dispatch path jobs use. */
  readonly tools: ToolCaller;
  /** Skills agents proposed with oz.propose_skill, for people to approve or reject. */
  readonly proposals: SkillProposals;
  /** What opening found wrong but went on with (a database file other users can read), for the operator. */
  readonly warnings: string[];
  /** What became of default plugins that did not install cleanly since the runtime opened. */
  readonly defaultProblems: DefaultPluginOutcome[] = [];
  /** The tenants' tool policy rules: allow, ask or deny on address patterns. */
  readonly policy: ToolPolicy;
  /** The calls an ask rule holds, for people to approve or deny. */
  readonly approvals: Approvals;
  /** Tenant-wide off switches for agents and tools. */
  readonly killSwitches: KillSwitches;
  /** What each agent and tool is for, and who answers for it. */
  readonly inventory: Inventory;
  /** This process's connections to the MCP servers behind tenants' MCP-backed tools. */
  readonly mcp: McpManager;
  /** The tenants' routines: schedules and events that start jobs, and the scheduler every worker runs. */
  readonly routines: Routines;
  /** The tenants' channels: inbound messages (`receive`), their outbox, and the listeners a worker keeps started. */
  readonly channels: ChannelHost;
  /** Where spans go, when an OTLP endpoint is configured. */
  readonly telemetry: Telemetry | undefined;
  /** Who changed what, and when. */
  readonly audit: Audit;
  /** Tenants, users, memberships and API keys, and the sign-ins that turn them into a Caller. */
  readonly identity: Identity;
  /** Plugins' long-lived runtimes: the hosts `oz0 serve` and `oz0 node` run, and their status. */
  readonly pluginRuntimes: PluginRuntimes;
  /**
   * What every surface calls: each operation takes a Caller first, checks its role, and acts
   * only in its tenant and within its agents (see docs/roles.md).
   */
  readonly services: Services;

  private constructor(
    home: string,
    store: Store,
    defaults: readonly string[],
    telemetry: Telemetry | undefined,
    throttle: ThrottleOptions | undefined,
    onChange: ChangeListener | undefined,
    leaseMs?: number,
  ) {
    this.home = home;
    this.store = store;
    this.warnings = [...store.warnings];
    this.telemetry = telemetry;
    this.mcp = new McpManager({ store, home });
    this.catalog = new Catalog(store, home, {
      mcp: this.mcp,
      defaults,
      onDefault: (outcome) => {
        if (outcome.outcome !== "installed") this.defaultProblems.push(outcome);
      },
    });
    this.models = new Models({
      store,
      home,
      loadPlugin: (tenant, plugin) => this.catalog.loadInstalled(tenant, plugin),
      pluginConfig: (tenant, plugin, loaded) => this.catalog.configs.effective(tenant, plugin, loaded),
      requireTenant: (tenant) => requireTenant(store.db, tenant),
    });
    // Tool policy and kill switches come first on the dispatch path, before any hook sees the call.
    const interceptors = [governanceInterceptor(store), approvalBindingInterceptor(store)];
    // The tenant's secrets stay out of every job's history and what a call by hand reports.
    const redactor = (tenant: string) => this.models.redactor(tenant);
    this.jobs = new JobEngine({
      store,
      source: this.catalog,
      home,
      models: this.models.resolver,
      interceptors,
      telemetry,
      redactor,
      ...(leaseMs === undefined ? {} : { leaseMs }),
    });
    // A change to records outside a job's call (an operator's erasure, retention's removals)
    // reaches the tenant's object_model_event handlers; with no job, what they record goes to
    // the tenant's audit log.
    this.catalog.records.onChange(async (tenant, change) => {
      const table = await this.jobs.hookTable(tenant);
      if (!table.has("object_model_event")) return;
      const events: GovernanceEvent[] = [];
      await new HookBus(table, { tenant }, (entry) => events.push(entry)).fire("object_model_event", {
        ...change,
      });
      const subject =
        change.action === "erase"
          ? `subject:${change.subject ?? ""}`
          : `${change.plugin ?? ""}/${change.kind ?? ""}`;
      await this.audit.recordHooks({ tenant, source: "records", subject, outcome: change.action, events });
    });
    this.tools = new ToolCaller({ source: this.catalog, home, interceptors, redactor, telemetry });
    this.policy = new ToolPolicy(store, this.catalog);
    this.approvals = new Approvals(store, this.jobs.jobs, { table: (tenant) => this.jobs.hookTable(tenant) });
    this.killSwitches = new KillSwitches(store, this.catalog);
    this.inventory = new Inventory(store, this.catalog);
    this.proposals = new SkillProposals({ store, source: this.catalog, home, interceptors });
    this.audit = new Audit(store);
    this.identity = new Identity(store, this.audit, {
      throttle,
      onTenantCreated: (tenant) => this.catalog.installDefaults(tenant),
    });
    this.routines = new Routines({
      store,
      jobs: this.jobs,
      source: this.catalog,
      secrets: new SecretStore({ settings: new TenantSettings(store.db, store.clockSql), home }),
      hookRecords: (entry) => this.audit.recordHooks(entry),
    });
    this.channels = new ChannelHost({
      store,
      source: {
        loadInstalled: (tenant, plugin) => this.catalog.loadInstalled(tenant, plugin),
        config: (tenant, plugin, loaded) => this.catalog.configs.effective(tenant, plugin, loaded),
      },
      jobs: this.jobs,
      routines: this.routines,
      hooks: storeHookSource(store, this.catalog),
      hookRecords: (entry) => this.audit.recordHooks(entry),
    });
    this.pluginRuntimes = new PluginRuntimes(store, this.catalog);
    // Each channel's listener runs once per tenant cluster-wide, leased like any plugin runtime.
    this.pluginRuntimes.addSource((plugin) => this.channels.listeners(plugin), ["channel"]);
    this.services = new Services(this, { onChange });
    // A plugin installed, updated or removed here, or its config set, is acted on at once by the
    // runtime hosts of this process; those of others see it at their next pass.
    this.services.onChange((change) => {
      if (
        change.outcome === "ok" &&
        (change.action.startsWith("plugins.") || change.action.startsWith("pluginConfig."))
      )
        this.pluginRuntimes.changed();
    });
    const { chat, approvals: decisions, jobs: jobService } = this.services;
    this.channels.connect({
      post: (caller, turn) => chat.post(caller, turn),
      decide: (caller, approval, decision, reason) => decisions.decide(caller, approval, decision, reason),
      answer: (caller, job, text) => jobService.answer(caller, job, text),
    });
    // Every approver's, operator's and admin's change lands in the audit log, a refused one too;
    // a runner's jobs and chats have their own history.
    this.services.onChange((change) =>
      ROLES.indexOf(SERVICE_ROLES[change.action].role) >= ROLES.indexOf("approver")
        ? this.audit.onChange(change)
        : undefined,
    );
  }

  static async open(options: RuntimeOptions = {}): Promise<Runtime> {
    const home = options.home ?? defaultHome();
    const store = await openStore({ home, databaseUrl: options.databaseUrl, memory: options.memory });
    const telemetry = Telemetry.configured({ endpoint: options.otlpEndpoint });
    const runtime = new Runtime(
      home,
      store,
      options.defaultPlugins ?? defaultPluginDirs(),
      telemetry,
      options.throttle,
      options.onChange,
      options.leaseMs,
    );
    try {
      await runtime.catalog.installDefaults(DEFAULT_TENANT);
    } catch (error) {
      await store.close();
      throw error;
    }
    return runtime;
  }

  /** A worker loop over this runtime's jobs (`oz0 worker`); `start()` sets it going. */
  worker(options: WorkerOptions = {}): JobWorker {
    return new JobWorker(this.jobs, options);
  }

  /** The channels' part of a worker: the outbox drained; `start()` sets it going. */
  channelDrainer(options: ChannelDrainerOptions = {}): ChannelDrainer {
    return new ChannelDrainer(this.channels, options);
  }

  /** How many workers are live on this store: a job queued now is taken by one of them. */
  liveWorkers(): Promise<number> {
    return liveWorkers(this.jobs);
  }

  async close(): Promise<void> {
    // Spans still in the batch go out before the process lets go.
    await this.telemetry?.shutdown().catch(() => {});
    await this.mcp.close();
    await this.jobs.live.close();
    await this.store.close();
  }
}
