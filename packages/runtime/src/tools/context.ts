// The ToolContext a tool's `build` gets when the runtime builds it for a tenant: its paths
// under oz0's home (made when missing, so each exists), and the mediated file and process
// surface confined to the call's roots.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { MemoryProvider, PluginConfig, RecordsApi, ToolContext } from "@oz0/sdk";
import { mediatedRuntime } from "../mediated/index.js";

export interface ToolContextOptions {
  readonly home: string;
  readonly tenant: string;
  readonly pluginId: string;
  /** The agent the tool works for; its working folder is `agentRoot`. */
  readonly agent?: string | undefined;
  /** The plugin's memory providers for the tenant (`ctx.memory`); absent, tools get none. */
  readonly memory?: ((name?: string) => Promise<MemoryProvider>) | undefined;
  /** The plugin's records in the tenant (`ctx.records`); absent, tools get none. */
  readonly records?: RecordsApi | undefined;
  /** The plugin's config in the tenant; `{}` when not given. */
  readonly config?: PluginConfig | undefined;
  /** The tool's own folder (its plugin's installed files), which it may read but not write. */
  readonly toolRoot?: string | undefined;
}

/**
 * Paths follow the tenant: `<home>/tenants/<tenant>/…`, so tenants never share a folder.
 * @example toolContext({ home: "/home/me/.oz0", tenant: "default", pluginId: "support-triage" }).paths.agentRoot
 */
export function toolContext(options: ToolContextOptions): ToolContext {
  const tenantRoot = join(options.home, "tenants", options.tenant);
  const paths = {
    home: options.home,
    userRoot: join(tenantRoot, "users", "local"),
    toolsBinDir: join(options.home, "bin"),
    agentRoot: join(tenantRoot, "agents", options.agent ?? "_"),
  };
  for (const folder of [paths.userRoot, paths.toolsBinDir, paths.agentRoot])
    mkdirSync(folder, { recursive: true });
  return {
    pluginId: options.pluginId,
    tenant: options.tenant,
    platform: process.platform,
    paths,
    runtime: mediatedRuntime({ agentRoot: paths.agentRoot, toolRoot: options.toolRoot }),
    config: options.config ?? {},
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.records === undefined ? {} : { records: options.records }),
  };
}
