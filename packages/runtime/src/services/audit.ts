// The audit log as callers see it: the tenant's entries, newest first, read by an admin.
import type { AuditEntry, AuditFilter } from "../audit/index.js";
import type { Caller } from "../callers/index.js";
import type { ServiceCore } from "./core.js";

export class AuditService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller, filter: AuditFilter = {}): Promise<AuditEntry[]> {
    this.#core.check(caller, "audit.list");
    return this.#core.deps.audit.list(caller, filter);
  }
}
