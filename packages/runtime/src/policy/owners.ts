// The owner check as governance uses it: what the catalog answers for an address before a
// rule, a switch or an inventory entry is written. The runtime's Catalog is one.
import type { Kysely } from "kysely";
import { requireTenant } from "../catalog/index.js";
import type { LoadedPlugin } from "../plugin-dir/index.js";
import type { Database } from "../store/index.js";

type Awaitable<T> = T | Promise<T>;

/** The catalog's owner check and its list of installed plugins. */
export interface OwnerCheck {
  /** Throws OWNER_MISMATCH (with the owner), NOT_FOUND, NAME_CLASH or TOOL_CLASH. */
  resolvePart(
    tenant: string,
    kind: "agent" | "tool" | "function",
    text: string,
  ): Awaitable<{ readonly plugin: string; readonly name: string; readonly address: string }>;
  /** Throws NOT_FOUND when `plugin` is not installed in `tenant`. */
  inspect(tenant: string, plugin: string): Awaitable<unknown>;
  /** The installed plugin as loaded, for the harnesses its code registers; left out, rules name no harness kind. */
  loadInstalled?(tenant: string, plugin: string): Awaitable<LoadedPlugin>;
}

/** Refuses a tenant that does not exist, as every command but an install does. */
export function checkTenant(db: Kysely<Database>, tenant: string): Promise<void> {
  return requireTenant(db, tenant);
}
