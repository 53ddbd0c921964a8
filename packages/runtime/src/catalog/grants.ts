// What of other plugins a plugin's agents and flows may reach: only what both its `uses:` and
// the tenant's grant cover. The spec's rule is that the plugin in an address is the plugin
// itself or one its manifest lists under `uses:`, with the part listed under that plugin's key;
// install checked that each used plugin is there at a version in the range. And another
// plugin's part is reached only when a tenant admin granted that `uses:` (`plugin_grants`,
// migration 14): install and update by an admin grant what the version's `uses:` asks at once,
// `oz0 plugin grant` grants it later (a default plugin, one whose grant was revoked). A call, a
// delegation or a skill load that either does not cover is refused at run time (NOT_GRANTED),
// whatever `tools:`, `delegation:` or `skills:` lists, with what to do about it.
import { Oz0Error, type PluginManifest } from "@oz0/sdk";
import type { Kysely, RawBuilder } from "kysely";
import type { Database } from "../store/index.js";

/** Another plugin's function, agent or skill that a part of plugin `manifest.name` reaches for. */
export type GrantTarget =
  | { readonly kind: "function"; readonly plugin: string; readonly tool: string; readonly function: string }
  | { readonly kind: "agent"; readonly plugin: string; readonly name: string }
  | { readonly kind: "skill"; readonly plugin: string; readonly name: string };

/** What a plugin's `uses:` asks of other plugins, by plugin. */
export type Uses = NonNullable<PluginManifest["uses"]>;

/** A tenant admin's grant of what a plugin's `uses:` asks. */
export interface TenantGrant {
  readonly plugin: string;
  /** The plugin version whose `uses:` was granted. */
  readonly version: string;
  readonly uses: Uses;
  /** The actor who granted it; `migration 14` for plugins installed before grants were kept. */
  readonly grantedBy: string;
  readonly grantedAt: number;
}

const LIST = { function: "tools", agent: "agents", skill: "skills" } as const;
const ACT = { function: "call", agent: "delegate to", skill: "load skill" } as const;

function targetName(target: GrantTarget): string {
  return target.kind === "function" ? `${target.tool}.${target.function}` : target.name;
}

/** Whether `uses` lists `target`: a function by `<tool>.<function>` or `<tool>.*`, an agent by name, a skill by name or `*`. */
export function usesCover(uses: Uses | undefined, target: GrantTarget): boolean {
  const entry = uses?.[target.plugin];
  const listed: readonly string[] = entry?.[LIST[target.kind]] ?? [];
  if (listed.includes(targetName(target))) return true;
  if (target.kind === "function") return listed.includes(`${target.tool}.*`);
  return target.kind === "skill" && listed.includes("*");
}

/**
 * The NOT_GRANTED refusal of plugin `manifest` reaching for `target` by its `uses:`, or undefined
 * when it may (its own part, or one its `uses:` lists). The tenant's grant is
 * `tenantGrantRefusal`'s; `reachRefusal` checks both.
 * @example grantRefusal(manifest, { kind: "agent", plugin: "github", name: "oz0-github" })?.message
 */
export function grantRefusal(manifest: PluginManifest, target: GrantTarget): Oz0Error | undefined {
  const own = manifest.name;
  if (target.plugin === own || usesCover(manifest.uses, target)) return undefined;
  const entry = manifest.uses?.[target.plugin];
  const list = LIST[target.kind];
  const name = targetName(target);
  const listed: readonly string[] = entry?.[list] ?? [];
  const address = `${target.plugin}/${name}`;
  const missing =
    entry === undefined
      ? `uses: of ${own} does not list plugin ${target.plugin}`
      : `uses.${target.plugin}.${list} of ${own} does not list ${name}${listed.length === 0 ? "" : ` (it lists ${listed.join(", ")})`}`;
  const message =
    `${missing}, so ${own}'s parts may not ${ACT[target.kind]} ${address}: another plugin's ${target.kind} is reached only when uses: grants it. ` +
    `Add ${name} under uses.${target.plugin}.${list} in ${own}'s plugin.yaml ` +
    `(uses: { ${target.plugin}: { ${list}: [${name}] } }) and update the plugin`;
  return new Oz0Error("NOT_GRANTED", message, {
    data: { plugin: own, address, list: `uses.${target.plugin}.${list}`, grant: "uses" },
  });
}

/**
 * The NOT_GRANTED refusal of plugin `plugin` reaching for `target` in `tenant` when the tenant's
 * admin has not granted it (no grant, or one of a `uses:` that does not list it); undefined when
 * it is its own part or the grant covers it.
 */
export function tenantGrantRefusal(
  tenant: string,
  plugin: string,
  grant: TenantGrant | undefined,
  target: GrantTarget,
): Oz0Error | undefined {
  if (target.plugin === plugin || usesCover(grant?.uses, target)) return undefined;
  const address = `${target.plugin}/${targetName(target)}`;
  const state =
    grant === undefined
      ? `tenant ${tenant} has no grant for ${plugin} (it came with the default plugins, or its grant was revoked)`
      : `the grant ${grant.grantedBy} gave of ${plugin} ${grant.version}'s uses: does not list it`;
  const message =
    `${plugin}'s uses: lists ${address}, but a tenant admin has not granted that, so ${plugin}'s parts may not ${ACT[target.kind]} it: ${state}. ` +
    `An admin grants what ${plugin}'s uses: asks with: oz0 plugin grant ${plugin}`;
  return new Oz0Error("NOT_GRANTED", message, {
    data: {
      plugin,
      address,
      list: `uses.${target.plugin}.${LIST[target.kind]}`,
      grant: "tenant",
    },
  });
}

/**
 * Whether plugin `manifest` may reach `target` in `tenant` now: its `uses:` and the tenant's
 * grant, read from the store at the moment of the call, so a grant revoked while a job runs
 * stops its next call.
 */
export async function reachRefusal(
  grants: GrantReader,
  tenant: string,
  manifest: PluginManifest,
  target: GrantTarget,
): Promise<Oz0Error | undefined> {
  if (target.plugin === manifest.name) return undefined;
  return (
    grantRefusal(manifest, target) ??
    tenantGrantRefusal(tenant, manifest.name, await grants.tenantGrant(tenant, manifest.name), target)
  );
}

/** Where the tenant's grants are read: the catalog (the store), or a test's plugin folders. */
export interface GrantReader {
  tenantGrant(tenant: string, plugin: string): TenantGrant | undefined | Promise<TenantGrant | undefined>;
}

/** The tenant's grant of `plugin`'s `uses:`; undefined when it has none. */
export async function readGrant(
  db: Kysely<Database>,
  tenant: string,
  plugin: string,
): Promise<TenantGrant | undefined> {
  const row = await db
    .selectFrom("plugin_grants")
    .selectAll()
    .where("tenant", "=", tenant)
    .where("plugin", "=", plugin)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    plugin: row.plugin,
    version: row.version,
    uses: JSON.parse(row.uses) as Uses,
    grantedBy: row.granted_by,
    grantedAt: Number(row.granted_at),
  };
}

/** Grants what `plugin`'s `uses:` asks in `tenant`, by `by`, in place of any grant it had. */
export async function writeGrant(
  trx: Kysely<Database>,
  tenant: string,
  plugin: { readonly name: string; readonly version: string; readonly manifest: PluginManifest },
  by: string,
  clockSql: RawBuilder<number>,
): Promise<void> {
  const row = {
    version: plugin.version,
    uses: JSON.stringify(plugin.manifest.uses ?? {}),
    granted_by: by,
    granted_at: clockSql,
  };
  await trx
    .insertInto("plugin_grants")
    .values({ tenant, plugin: plugin.name, ...row })
    .onConflict((conflict) => conflict.columns(["tenant", "plugin"]).doUpdateSet(row))
    .execute();
}

/** Takes back `plugin`'s grant in `tenant`; true when it had one. */
export async function deleteGrant(trx: Kysely<Database>, tenant: string, plugin: string): Promise<boolean> {
  const result = await trx
    .deleteFrom("plugin_grants")
    .where("tenant", "=", tenant)
    .where("plugin", "=", plugin)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a `uses:` lists, by address, as `oz0 plugin inspect` and a grant's report show it. */
export function usesAddresses(uses: Uses | undefined): string[] {
  return Object.entries(uses ?? {}).flatMap(([used, entry]) => [
    ...(entry.tools ?? []).map((tool) => `${used}/${tool}`),
    ...(entry.agents ?? []).map((agent) => `${used}/${agent}`),
    ...(entry.skills ?? []).map((skill) => `${used}/${skill === "*" ? "* (skills)" : skill}`),
  ]);
}
