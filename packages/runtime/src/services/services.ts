// The one service layer every surface calls: the CLI now, the server next. Each operation
// takes the Caller first, checks its role before anything else (SERVICE_ROLES), acts only in
// its tenant and within its agents, and every change goes through one wrapper that tells the
// change listener (the audit log) what was done.

import { AuditService } from "./audit.js";
import { CatalogService, PluginsService } from "./catalog.js";
import { ChannelsService } from "./channels.js";
import { type ChangeListener, ServiceCore, type ServiceDeps } from "./core.js";
import { ApprovalsService, InventoryService, KillSwitchesService, PolicyService } from "./governance.js";
import { IdentityService } from "./identity.js";
import { ChatService, JobsService } from "./jobs.js";
import { McpService } from "./mcp.js";
import { ModelsService } from "./models.js";
import { NodesService } from "./nodes.js";
import { PluginConfigService } from "./plugin-config.js";
import { RecordsService } from "./records.js";
import { RemoteService } from "./remote.js";
import { RoutinesService } from "./routines.js";
import { SkillsService } from "./skills.js";
import { ToolsService } from "./tools.js";
import { UsageService } from "./usage.js";

export interface ServicesOptions {
  /** Told of every change a caller makes; the audit log attaches here. */
  readonly onChange?: ChangeListener | undefined;
}

export class Services {
  readonly jobs: JobsService;
  readonly chat: ChatService;
  readonly catalog: CatalogService;
  readonly plugins: PluginsService;
  readonly pluginConfig: PluginConfigService;
  readonly tools: ToolsService;
  readonly policy: PolicyService;
  readonly approvals: ApprovalsService;
  readonly killSwitches: KillSwitchesService;
  readonly inventory: InventoryService;
  readonly models: ModelsService;
  readonly mcp: McpService;
  readonly remote: RemoteService;
  readonly skills: SkillsService;
  readonly routines: RoutinesService;
  readonly channels: ChannelsService;
  readonly records: RecordsService;
  readonly nodes: NodesService;
  readonly identity: IdentityService;
  readonly audit: AuditService;
  readonly usage: UsageService;

  readonly #core: ServiceCore;

  constructor(deps: ServiceDeps, options: ServicesOptions = {}) {
    const core = new ServiceCore(deps, options.onChange);
    this.#core = core;
    this.jobs = new JobsService(core);
    this.chat = new ChatService(core, this.jobs);
    this.catalog = new CatalogService(core);
    this.plugins = new PluginsService(core);
    this.pluginConfig = new PluginConfigService(core);
    this.tools = new ToolsService(core);
    this.policy = new PolicyService(core);
    this.approvals = new ApprovalsService(core);
    this.killSwitches = new KillSwitchesService(core);
    this.inventory = new InventoryService(core);
    this.models = new ModelsService(core);
    this.mcp = new McpService(core);
    this.remote = new RemoteService(core);
    this.skills = new SkillsService(core);
    this.routines = new RoutinesService(core);
    this.channels = new ChannelsService(core);
    this.records = new RecordsService(core);
    this.nodes = new NodesService(core);
    this.identity = new IdentityService(core);
    this.audit = new AuditService(core);
    this.usage = new UsageService(core);
  }

  /**
   * Tells `listener` of every change from now on (the audit log: `services.onChange(runtime.audit.onChange)`);
   * returns what stops it.
   */
  onChange(listener: ChangeListener): () => void {
    return this.#core.listen(listener);
  }
}
