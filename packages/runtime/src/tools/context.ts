// The ToolContext a tool's `build` gets when the runtime builds it for a tenant: its paths
// under oz0's home, and the mediated file and process surface.
import { join } from "node:path";
import type { MemoryProvider, PluginConfig, RecordsApi } from "@oz0/sdk";
import { Oz0Error, type ToolContext, type ToolRuntime } from "@oz0/sdk";

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
}

/**
 * Paths follow the tenant: `<home>/tenants/<tenant>/…`, so tenants never share a folder.
 * @example toolContext({ home: "/home/me/.oz0", tenant: "default", pluginId: "support-triage" }).paths.agentRoot
 */
export function toolContext(options: ToolContextOptions): ToolContext {
  const tenantRoot = join(options.home, "tenants", options.tenant);
  return {
    pluginId: options.pluginId,
    tenant: options.tenant,
    platform: process.platform,
    paths: {
      home: options.home,
      userRoot: join(tenantRoot, "users", "local"),
      toolsBinDir: join(options.home, "bin"),
      agentRoot: join(tenantRoot, "agents", options.agent ?? "_"),
    },
    runtime: unavailableRuntime,
    config: options.config ?? {},
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.records === undefined ? {} : { records: options.records }),
  };
}

function unavailable(what: string): never {
  throw new Oz0Error(
    "INTERNAL",
    `runtime.${what}: this oz0 does not mediate files and processes for tools yet; a tool that needs them cannot run here.`,
  );
}

const unavailableRuntime: ToolRuntime = {
  readFile: async () => unavailable("readFile"),
  writeFile: async () => unavailable("writeFile"),
  listDir: async () => unavailable("listDir"),
  exec: async () => unavailable("exec"),
};
