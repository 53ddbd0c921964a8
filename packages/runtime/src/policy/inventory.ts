// `oz0 inventory set agent|tool <address> --purpose TEXT [--owner NAME]` and `oz0 inventory
// list`: what each agent and tool of a tenant is for and who answers for it, shown beside the
// part in `oz0 catalog`. Addresses are owner-checked before an entry is written.
import { Oz0Error } from "@oz0/sdk";
import type { Store, SwitchKind } from "../store/index.js";
import { checkTenant, type OwnerCheck } from "./owners.js";

/** Longest purpose and owner kept, in characters. */
export const INVENTORY_LIMITS = { purpose: 500, owner: 100 } as const;

/** One entry as `oz0 inventory list` shows it. */
export interface InventoryEntry {
  readonly kind: SwitchKind;
  readonly address: string;
  readonly purpose: string;
  readonly owner: string | null;
  /** Epoch milliseconds, by the database's clock. */
  readonly updatedAt: number;
}

export interface InventoryChange {
  readonly purpose: string;
  /** A name sets the owner, "" clears it, undefined keeps what the entry has. */
  readonly owner?: string | undefined;
}

export class Inventory {
  readonly #store: Store;
  readonly #owners: OwnerCheck;

  constructor(store: Store, owners: OwnerCheck) {
    this.#store = store;
    this.#owners = owners;
  }

  /**
   * Sets what agent or tool `text` is for, after the owner check on its address.
   * @example await inventory.set("default", "agent", "support-triage/triage", { purpose: "Sorts tickets.", owner: "support" })
   */
  async set(
    tenant: string,
    kind: SwitchKind,
    text: string,
    change: InventoryChange,
  ): Promise<InventoryEntry> {
    const purpose = checkText("purpose", change.purpose, INVENTORY_LIMITS.purpose, true);
    const owner =
      change.owner === undefined
        ? undefined
        : checkText("owner", change.owner, INVENTORY_LIMITS.owner, false);
    const { address } = await this.#owners.resolvePart(tenant, kind, text);
    return this.#store.transaction(async (trx) => {
      const values = { purpose, updated_at: this.#store.clockSql, ...(owner === undefined ? {} : { owner }) };
      await trx
        .insertInto("inventory")
        .values({ tenant, kind, address, owner: null, ...values })
        .onConflict((conflict) => conflict.columns(["tenant", "kind", "address"]).doUpdateSet(values))
        .execute();
      const row = await trx
        .selectFrom("inventory")
        .selectAll()
        .where("tenant", "=", tenant)
        .where("kind", "=", kind)
        .where("address", "=", address)
        .executeTakeFirstOrThrow();
      return entryView(row);
    });
  }

  /** The tenant's entries, agents first, then by address. */
  async list(tenant: string): Promise<InventoryEntry[]> {
    await checkTenant(this.#store.db, tenant);
    const rows = await this.#store.db
      .selectFrom("inventory")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("kind")
      .orderBy("address")
      .execute();
    return rows.map(entryView);
  }
}

/** The text trimmed, or null for an empty optional one; refuses an empty required one or one too long. */
function checkText(field: string, text: string, max: number, required: true): string;
function checkText(field: string, text: string, max: number, required: false): string | null;
function checkText(field: string, text: string, max: number, required: boolean): string | null {
  const trimmed = text.trim();
  if (trimmed === "" && !required) return null;
  const problem =
    trimmed === ""
      ? `the ${field} is empty; say what the part is for`
      : trimmed.length > max
        ? `the ${field} is ${trimmed.length} characters long; at most ${max} are kept`
        : undefined;
  if (problem === undefined) return trimmed;
  throw new Oz0Error("INVALID_INPUT", `${problem}.`, {
    data: { issues: [{ path: field, message: problem }] },
  });
}

function entryView(row: {
  kind: SwitchKind;
  address: string;
  purpose: string;
  owner: string | null;
  updated_at: number;
}): InventoryEntry {
  return {
    kind: row.kind,
    address: row.address,
    purpose: row.purpose,
    owner: row.owner,
    updatedAt: Number(row.updated_at),
  };
}
