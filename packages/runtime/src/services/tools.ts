// A function called by hand, through the dispatch path jobs use (owner check, policy, kill
// switches, hooks): a runner's.
import type { Caller } from "../callers/index.js";
import type { ToolCallReport } from "../tools/index.js";
import type { ServiceCore } from "./core.js";

export class ToolsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** Calls the function at `address` with `args`; a refused or failed call is reported, not thrown. */
  async call(caller: Caller, address: string, args: unknown): Promise<ToolCallReport> {
    return this.#core.change(caller, "tools.call", address, (tenant) =>
      this.#core.deps.tools.call(tenant, address, args),
    );
  }
}
