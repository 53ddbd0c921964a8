// The mediated tool runtime: `ToolContext.runtime`, the files and processes a tool reaches,
// confined to the roots its call may use and bounded (docs/security.md#the-tool-runtime).
// ACP harness sessions are served their `fs` and `terminal` needs through the same surface.
import type { ToolRuntime } from "@oz0/sdk";
import { execConfined } from "./exec.js";
import { listConfined, readConfined, writeConfined } from "./files.js";
import { type Isolation, processIsolation } from "./isolation.js";
import { Confinement, type MediatedRoot } from "./roots.js";

export {
  CLEAN_PATH,
  DEFAULT_EXEC_MS,
  DEFAULT_OUTPUT_BYTES,
  MAX_EXEC_MS,
  MAX_OUTPUT_BYTES,
} from "./exec.js";
export { MAX_LIST_ENTRIES, MAX_READ_BYTES } from "./files.js";
export { type Isolation, processIsolation, sandboxArgs } from "./isolation.js";
export { Confinement, inside, type MediatedRoot } from "./roots.js";

export interface MediatedOptions {
  /** The project the call works in, when one is attached: relative paths start there. Writable. */
  readonly projectRoot?: string | undefined;
  /** The agent's working folder: writable, and HOME for processes. */
  readonly agentRoot: string;
  /** The tool's own folder (its plugin's installed files): read-only. */
  readonly toolRoot?: string | undefined;
  /** Left out, what `processIsolation()` detects. */
  readonly isolation?: Isolation | undefined;
}

/** The roots of a call, the project's first (where relative paths start), then the agent's, then the tool's. */
export function callRoots(options: MediatedOptions): MediatedRoot[] {
  const roots: MediatedRoot[] = [];
  if (options.projectRoot !== undefined)
    roots.push({ name: "project", path: options.projectRoot, writable: true });
  roots.push({ name: "agent", path: options.agentRoot, writable: true });
  if (options.toolRoot !== undefined) roots.push({ name: "tool", path: options.toolRoot, writable: false });
  return roots;
}

/** A tool's `runtime`: every path confined to its roots, every process bounded. */
export function mediatedRuntime(
  options: MediatedOptions,
): ToolRuntime & { readonly confinement: Confinement } {
  const confinement = new Confinement(callRoots(options));
  let isolation = options.isolation;
  const setting = () => {
    isolation ??= processIsolation();
    return { confinement, isolation, home: options.agentRoot };
  };
  return {
    confinement,
    readFile: (path, readOptions) => readConfined(confinement, path, readOptions),
    writeFile: (path, content, writeOptions) => writeConfined(confinement, path, content, writeOptions),
    listDir: (path, listOptions) => listConfined(confinement, path, listOptions),
    exec: async (command, args, execOptions) => execConfined(setting(), command, args, execOptions),
  };
}
