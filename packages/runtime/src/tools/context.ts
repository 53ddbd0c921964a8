// The ToolContext a tool's `build` gets when the runtime builds it for a tenant: its paths
// under oz0's home (each made, when missing, as the tool reads it, so each exists), and the
// mediated file and process surface confined to the call's roots.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { MemoryProvider, PluginConfig, RecordsApi, ToolContext, ToolRuntime } from "@oz0/sdk";
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
  const agentRoot = join(tenantRoot, "agents", options.agent ?? "_");
  const paths = madeWhenRead({
    home: options.home,
    userRoot: join(tenantRoot, "users", "local"),
    toolsBinDir: join(options.home, "bin"),
    agentRoot,
  });
  const mediated = mediatedRuntime({ agentRoot, toolRoot: options.toolRoot });
  // The runtime works in the agent's folder: each call reads its path, which makes it once.
  const inAgentRoot = async <T>(call: () => Promise<T>): Promise<T> => {
    void paths.agentRoot;
    return call();
  };
  const runtime: ToolRuntime = {
    readFile: (path, readOptions) => inAgentRoot(() => mediated.readFile(path, readOptions)),
    writeFile: (path, content, writeOptions) =>
      inAgentRoot(() => mediated.writeFile(path, content, writeOptions)),
    listDir: (path, listOptions) => inAgentRoot(() => mediated.listDir(path, listOptions)),
    exec: (command, args, execOptions) => inAgentRoot(() => mediated.exec(command, args, execOptions)),
  };
  return {
    pluginId: options.pluginId,
    tenant: options.tenant,
    platform: process.platform,
    paths,
    runtime,
    config: options.config ?? {},
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.records === undefined ? {} : { records: options.records }),
  };
}

/**
 * `paths` whose folders are made when a tool first reads each, so each exists as ToolContext
 * promises: most tools read none, and making all three at every job's tool build was six system
 * calls of every job. A folder removed since is made again by the next job's context.
 */
function madeWhenRead(paths: ToolContext["paths"]): ToolContext["paths"] {
  const made = new Set<string>();
  const folder = (key: "userRoot" | "toolsBinDir" | "agentRoot") => ({
    enumerable: true,
    get: () => {
      const path = paths[key];
      if (!made.has(key)) {
        mkdirSync(path, { recursive: true });
        made.add(key);
      }
      return path;
    },
  });
  return Object.defineProperties(
    { home: paths.home },
    { userRoot: folder("userRoot"), toolsBinDir: folder("toolsBinDir"), agentRoot: folder("agentRoot") },
  ) as ToolContext["paths"];
}
