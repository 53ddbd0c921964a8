// A tenant's governance as the dispatch path reads it: its compiled tool policy and its kill
// switches. Every change to either moves the tenant's governance version on (in the same
// transaction), so a reader asks for one number per step and reloads only when it moved: a
// change is seen at the very next step of every running job, in every process. A job's step
// writes read the number in their own statement, so a step asks for it without one of its own.
import { CompiledQuery } from "kysely";
import { operationGovernanceVersion, type Store, type SwitchKind } from "../store/index.js";
import { CompiledPolicy } from "./rules.js";

/** Who pulled a kill switch, and when. */
export interface KillRecord {
  readonly kind: SwitchKind;
  /** `<plugin>/<agent>` or `<plugin>/<tool>`. */
  readonly address: string;
  readonly by: string | null;
  readonly at: number;
}

/** One tenant's governance at one version. */
export interface TenantGovernance {
  readonly tenant: string;
  readonly version: number;
  readonly policy: CompiledPolicy;
  /** Killed agents by address. */
  readonly agents: ReadonlyMap<string, KillRecord>;
  /** Killed tools by address. */
  readonly tools: ReadonlyMap<string, KillRecord>;
}

/** Reads tenants' governance from one store, keeping what it compiled until the version moves. */
export class GovernanceReader {
  readonly #store: Store;
  readonly #versionSql: string;
  readonly #tenants = new Map<string, TenantGovernance>();

  constructor(store: Store) {
    this.#store = store;
    // Compiled once: building the query anew at every step would cost more than running it.
    this.#versionSql = store.db
      .selectFrom("tenants")
      .select("governance_version")
      .where("name", "=", "")
      .compile().sql;
  }

  /**
   * The tenant's governance now: one query when nothing changed, a reload when something did.
   * Inside an operation of the catalog that read the tenant's versions (a job's start), it goes
   * by the governance version that read gave.
   */
  async current(tenant: string): Promise<TenantGovernance> {
    const read = operationGovernanceVersion(this.#store.db, tenant);
    if (read !== undefined) return this.at(tenant, read);
    const { rows } = await this.#store.db.executeQuery<{ governance_version: number }>(
      CompiledQuery.raw(this.#versionSql, [tenant]),
    );
    return this.at(tenant, Number(rows[0]?.governance_version ?? 0));
  }

  /** The tenant's governance at `version` when it is the one compiled already; undefined otherwise. */
  known(tenant: string, version: number): TenantGovernance | undefined {
    const known = this.#tenants.get(tenant);
    return known !== undefined && known.version === version ? known : undefined;
  }

  /** The tenant's governance at `version`, read a moment ago: a reload only when it moved. */
  async at(tenant: string, version: number): Promise<TenantGovernance> {
    const known = this.known(tenant, version);
    if (known !== undefined) return known;
    const loaded = await this.load(tenant, version);
    this.#tenants.set(tenant, loaded);
    return loaded;
  }

  private async load(tenant: string, version: number): Promise<TenantGovernance> {
    const db = this.#store.db;
    const [rules, switches] = await Promise.all([
      db.selectFrom("policies").select(["pattern", "action"]).where("tenant", "=", tenant).execute(),
      db
        .selectFrom("kill_switches")
        .select(["kind", "address", "by", "created_at"])
        .where("tenant", "=", tenant)
        .execute(),
    ]);
    const agents = new Map<string, KillRecord>();
    const tools = new Map<string, KillRecord>();
    for (const row of switches) {
      const record: KillRecord = {
        kind: row.kind,
        address: row.address,
        by: row.by,
        at: Number(row.created_at),
      };
      (row.kind === "agent" ? agents : tools).set(row.address, record);
    }
    return { tenant, version, policy: CompiledPolicy.compile(rules), agents, tools };
  }
}

const readers = new WeakMap<Store, GovernanceReader>();

/**
 * The one reader of a store, shared by its job engines, its calls by hand and its admin
 * commands, so each tenant's rules are compiled once per version in a process.
 */
export function governanceOf(store: Store): GovernanceReader {
  let reader = readers.get(store);
  if (reader === undefined) {
    reader = new GovernanceReader(store);
    readers.set(store, reader);
  }
  return reader;
}

/** Moves the tenant's governance version on; call it in the transaction that changes a rule or switch. */
export async function bumpGovernanceVersion(
  db: Pick<Store["db"], "updateTable">,
  tenant: string,
): Promise<void> {
  await db
    .updateTable("tenants")
    .set((eb) => ({ governance_version: eb("governance_version", "+", 1) }))
    .where("name", "=", tenant)
    .execute();
}
