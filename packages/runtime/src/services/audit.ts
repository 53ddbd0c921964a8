// The audit log as callers see it: the tenant's entries, newest first, read by an admin.

import { Oz0Error } from "@oz0/sdk";
import type { AuditEntry, AuditFilter } from "../audit/index.js";
import type { Caller } from "../callers/index.js";
import { type ServiceCore, scoped } from "./core.js";

export class AuditService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller, filter: AuditFilter = {}): Promise<AuditEntry[]> {
    this.#core.check(caller, "audit.list");
    // Its entries name every agent and job of the tenant: a caller limited to some agents would
    // learn of the others, so it takes an admin with every agent in scope.
    if (scoped(caller)) {
      throw new Oz0Error(
        "FORBIDDEN",
        `${caller.actor} is limited to some agents (${caller.agents.join(", ")}), and the audit log names every agent's changes: reading it needs an admin whose agents are * (every agent).`,
        { data: { tenant: caller.tenant, actor: caller.actor, role: caller.role, needs: "agents: *" } },
      );
    }
    return this.#core.deps.audit.list(caller, filter);
  }
}
