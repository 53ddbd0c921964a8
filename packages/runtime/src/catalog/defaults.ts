// Default plugins: what a tenant gets when it comes into being (oz0's built-in tool library,
// std). Each is installed once per tenant, and the tenant's settings record that it was, so a
// default an admin removed stays removed. Where the default plugins are comes from the
// runtime: `defaultPluginDirs()` finds the first-party ones beside it.
import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parsePluginManifest } from "@oz0/sdk";
import { YAML_LIMITS } from "@oz0/sdk/internal";
import type { Kysely, RawBuilder } from "kysely";
import { readInPlugin } from "../plugin-dir/index.js";
import type { Database } from "../store/index.js";

/** The tenant setting that records which default plugins the tenant was given. */
export const DEFAULTS_SETTING = "plugins.defaults";

/** The first-party plugins every new tenant gets, by package. */
const DEFAULT_PACKAGES = ["@oz0/plugin-std"] as const;

/**
 * The folders of the default plugins, found as Node would find the packages from here (the
 * `node_modules` folders up from this file). A package that is not there is left out.
 */
export function defaultPluginDirs(): string[] {
  const require = createRequire(import.meta.url);
  const dirs: string[] = [];
  for (const name of DEFAULT_PACKAGES) {
    // A package's folder, not its entry: the entry (dist/) may not be built yet, and the
    // folder is what gets installed, with its plugin.yaml.
    const found = (require.resolve.paths(name) ?? [])
      .map((modules) => join(modules, name))
      .find((dir) => existsSync(join(dir, "plugin.yaml")));
    if (found !== undefined) dirs.push(realpathSync(found));
  }
  return dirs;
}

/** What became of one default plugin in one tenant. */
export interface DefaultPluginOutcome {
  readonly tenant: string;
  /** The plugin's name; the folder's name when its plugin.yaml cannot be read. */
  readonly plugin: string;
  readonly dir: string;
  /**
   * `installed`; `declined` when the tenant's plugins leave no room for it (a name it would
   * take, something it uses), which is recorded so it is not tried again; `unavailable` when
   * its folder does not load (not built yet), which is tried again at the next chance.
   */
  readonly outcome: "installed" | "declined" | "unavailable";
  /** Why it was declined or unavailable; `null` when installed. */
  readonly reason: string | null;
}

/**
 * The names of the default plugins' manifests as this version ships them, by the SHA-256 of
 * their text: every open asks for each default's name (to skip those given already), and parsing
 * std's whole manifest for it was a tenth of a short command's CPU. A manifest whose text is not
 * one of these (changed, broken) is parsed as before. `defaults.test.ts` holds them to the files.
 */
export const SHIPPED_MANIFESTS: ReadonlyMap<string, string> = new Map([
  ["f3b0453f354139d6c06a1ce7ca739d511c94ef33d190cb423bc00c7ae83e3511", "std"],
]);

/** Each default folder's plugin name, from its plugin.yaml; `undefined` when that cannot be read. */
export async function defaultNames(dirs: readonly string[]): Promise<{ dir: string; name?: string }[]> {
  return Promise.all(
    dirs.map(async (dir) => {
      try {
        const text = await readInPlugin(dir, "plugin.yaml", { maxBytes: YAML_LIMITS.maxBytes });
        const shipped = SHIPPED_MANIFESTS.get(createHash("sha256").update(text).digest("hex"));
        return { dir, name: shipped ?? parsePluginManifest(text, { file: "plugin.yaml" }).name };
      } catch {
        // The install that follows reports why the folder does not load.
        return { dir };
      }
    }),
  );
}

/** The default plugins `tenant` was given, each with what became of it. */
export async function givenDefaults(db: Kysely<Database>, tenant: string): Promise<Record<string, string>> {
  const row = await db
    .selectFrom("settings")
    .select("value")
    .where("tenant", "=", tenant)
    .where("key", "=", DEFAULTS_SETTING)
    .executeTakeFirst();
  return row === undefined ? {} : (JSON.parse(row.value) as Record<string, string>);
}

/** Records that `tenant` was given the default `plugin`, with what became of it. */
export async function markDefault(
  db: Kysely<Database>,
  tenant: string,
  plugin: string,
  outcome: "installed" | "declined",
  clockSql: RawBuilder<number>,
): Promise<void> {
  const value = JSON.stringify({ ...(await givenDefaults(db, tenant)), [plugin]: outcome });
  await db
    .insertInto("settings")
    .values({ tenant, key: DEFAULTS_SETTING, value, updated_at: clockSql })
    .onConflict((conflict) =>
      conflict.columns(["tenant", "key"]).doUpdateSet({ value, updated_at: clockSql }),
    )
    .execute();
}

/** The message for a default that could not be loaded, with how to make it loadable. */
export function unavailableReason(dir: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `${why}. Build it (npm run build in oz0's workspace, or tsc -b ${dir}); oz0 tries again at its next start.`;
}
