// The runtime: one open store plus the services built on it. The CLI and the server each
// open one and call its services; nothing else holds state.
import { homedir } from "node:os";
import { join } from "node:path";
import { Catalog } from "./catalog/index.js";
import { JobEngine } from "./jobs/index.js";
import { openStore, type Store } from "./store/index.js";
import { ToolCaller } from "./tools/index.js";

export interface RuntimeOptions {
  /** oz0's home folder: the SQLite file and per-tenant files live here. Default `$OZ0_HOME` or `~/.oz0`. */
  readonly home?: string | undefined;
  /** A PostgreSQL URL (`OZ0_DATABASE_URL`); the embedded SQLite store when unset. */
  readonly databaseUrl?: string | undefined;
  /** An in-memory SQLite store, gone on close: for tests. */
  readonly memory?: boolean | undefined;
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
  /** The job engine: starts, runs, resumes and cancels jobs of the catalog's agents. */
  readonly jobs: JobEngine;
  /** Calls a function by hand, through the dispatch path jobs use. */
  readonly tools: ToolCaller;

  private constructor(home: string, store: Store) {
    this.home = home;
    this.store = store;
    this.catalog = new Catalog(store, home);
    this.jobs = new JobEngine({ store, source: this.catalog, home });
    this.tools = new ToolCaller({ source: this.catalog, home });
  }

  static async open(options: RuntimeOptions = {}): Promise<Runtime> {
    const home = options.home ?? defaultHome();
    const store = await openStore({ home, databaseUrl: options.databaseUrl, memory: options.memory });
    return new Runtime(home, store);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
