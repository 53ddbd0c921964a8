// The records plugins' tools keep, for the tenant's people: read by an operator, retention and
// holds set by an operator, erasure by an admin. Records belong to plugins, not to agents, so a
// caller limited to some agents reaches none of them.
import { Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import type {
  Erasure,
  HoldScope,
  RecordAddress,
  RecordHold,
  Retention,
  TenantRecord,
} from "../records/index.js";
import type { ServiceCore } from "./core.js";
import type { ServiceAction } from "./roles.js";

export interface RecordFilter {
  readonly plugin?: string | undefined;
  readonly kind?: string | undefined;
  readonly subject?: string | undefined;
  readonly limit?: number | undefined;
}

export class RecordsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  /** The latest version of each record that matches, newest first. */
  async list(caller: Caller, filter: RecordFilter = {}): Promise<TenantRecord[]> {
    const tenant = this.#check(caller, "records.list");
    return this.#records.list(tenant, filter);
  }

  /** One version of a record: the latest, or `version`. */
  async get(caller: Caller, at: RecordAddress, version?: number): Promise<TenantRecord> {
    const tenant = this.#check(caller, "records.get");
    const found = await this.#records.get(tenant, at, version);
    if (found !== undefined) return found;
    const which = version === undefined ? "" : ` version ${version}`;
    throw new Oz0Error(
      "NOT_FOUND",
      `there is no record ${at.plugin}/${at.kind}/${at.key}${which} in tenant ${tenant}; oz0 records list shows them`,
      { data: { kind: "record", name: `${at.plugin}/${at.kind}/${at.key}` } },
    );
  }

  async history(caller: Caller, at: RecordAddress): Promise<TenantRecord[]> {
    const tenant = this.#check(caller, "records.history");
    return this.#records.history(tenant, at);
  }

  async retention(caller: Caller): Promise<Retention[]> {
    return this.#records.retention(this.#check(caller, "records.retention"));
  }

  /** Keeps plugin `plugin`'s records of `kind` for `days` (undefined: for ever). */
  async setRetention(
    caller: Caller,
    plugin: string,
    kind: string,
    days: number | undefined,
  ): Promise<Retention[]> {
    return this.#core.change(caller, "records.setRetention", `${plugin}/${kind}`, async (tenant) => {
      this.#unscoped(caller, "records.setRetention");
      await this.#records.setRetention(tenant, plugin, kind, days, caller.actor);
      return this.#records.retention(tenant);
    });
  }

  /** Removes what is past its retention now, rather than when its kind is next read or written. */
  async sweep(caller: Caller): Promise<{ readonly removed: number }> {
    return this.#core.change(caller, "records.sweep", "*", async (tenant) => {
      this.#unscoped(caller, "records.sweep");
      return { removed: await this.#records.sweep(tenant) };
    });
  }

  async holds(caller: Caller, options: { readonly all?: boolean } = {}): Promise<RecordHold[]> {
    return this.#records.holds(this.#check(caller, "records.holds"), options);
  }

  async hold(caller: Caller, scope: HoldScope, reason: string): Promise<RecordHold> {
    return this.#core.change(caller, "records.hold", holdTarget(scope), async (tenant) => {
      this.#unscoped(caller, "records.hold");
      return this.#records.hold(tenant, scope, reason, caller.actor);
    });
  }

  async release(caller: Caller, id: string): Promise<RecordHold> {
    return this.#core.change(caller, "records.release", id, async (tenant) => {
      this.#unscoped(caller, "records.release");
      return this.#records.release(tenant, id, caller.actor);
    });
  }

  /** Erases every record about `subject`, and what the tenant's job histories hold of them. */
  async erase(caller: Caller, subject: string): Promise<Erasure> {
    return this.#core.change(caller, "records.erase", `subject:${subject}`, async (tenant) => {
      this.#unscoped(caller, "records.erase");
      return this.#records.erase(tenant, subject);
    });
  }

  get #records() {
    return this.#core.deps.catalog.records;
  }

  #check(caller: Caller, action: ServiceAction): string {
    const tenant = this.#core.check(caller, action);
    this.#unscoped(caller, action);
    return tenant;
  }

  #unscoped(caller: Caller, action: ServiceAction): void {
    if (caller.agents.includes("*")) return;
    throw new Oz0Error(
      "FORBIDDEN",
      `${caller.actor} may reach only some agents (${caller.agents.join(", ")}), and records belong to plugins, not agents: ${action} needs a membership or key for all agents (*)`,
      { data: { action, agents: caller.agents } },
    );
  }
}

function holdTarget(scope: HoldScope): string {
  const part = [scope.plugin, scope.kind, scope.key].filter((value) => value !== undefined).join("/");
  const subject = scope.subject === undefined ? "" : `subject:${scope.subject}`;
  return [part, subject].filter((value) => value !== "").join(" ");
}
