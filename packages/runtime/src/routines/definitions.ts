// Which routines a tenant has: those of its installed plugins' manifests (`<plugin>/<name>`)
// and its own (`oz0 routine add`, a bare name), each read with the manifest's routine schema.
import { Oz0Error, type Routine } from "@oz0/sdk";
import { routineEvent, routineSchema } from "@oz0/sdk/internal";
import type { Store } from "../store/index.js";

/** A routine of a tenant, with where it comes from. */
export interface RoutineDef {
  /** `<plugin>/<name>` for a plugin's, the bare name for a tenant's own. */
  readonly address: string;
  /** The plugin whose manifest defines it; undefined for a tenant's own. */
  readonly plugin: string | undefined;
  readonly routine: Routine;
}

/** The actor a routine's jobs record as theirs. */
export function routineActor(def: RoutineDef): string {
  return `routine:${def.address}`;
}

/** The routine's event, read; undefined for a scheduled one. */
export function eventOf(def: RoutineDef): ReturnType<typeof routineEvent> | undefined {
  return def.routine.event === undefined ? undefined : routineEvent(def.routine.event);
}

/** Every routine of `tenant`, plugins' first (by plugin, then as listed), then the tenant's own. */
export async function tenantRoutines(store: Store, tenant: string): Promise<RoutineDef[]> {
  const plugins = await store.db
    .selectFrom("plugins")
    .select(["name", "manifest"])
    .where("tenant", "=", tenant)
    .orderBy("name")
    .execute();
  const defs: RoutineDef[] = [];
  for (const plugin of plugins) {
    const manifest = JSON.parse(plugin.manifest) as { routines?: unknown[] };
    for (const raw of manifest.routines ?? []) {
      // The manifest passed the schema at install; a row of an older oz0 that no longer
      // passes is left out here and reported by `oz0 plugin lint` against the tenant.
      const parsed = routineSchema.safeParse(raw);
      if (parsed.success) {
        defs.push({
          address: `${plugin.name}/${parsed.data.name}`,
          plugin: plugin.name,
          routine: parsed.data,
        });
      }
    }
  }
  const own = await store.db
    .selectFrom("routines")
    .select(["name", "definition"])
    .where("tenant", "=", tenant)
    .orderBy("name")
    .execute();
  for (const row of own) {
    const parsed = routineSchema.safeParse(JSON.parse(row.definition));
    if (parsed.success) defs.push({ address: row.name, plugin: undefined, routine: parsed.data });
  }
  return defs;
}

/** The routine named `name` in `tenant`, or NOT_FOUND naming the ones there are. */
export async function findRoutine(store: Store, tenant: string, name: string): Promise<RoutineDef> {
  const all = await tenantRoutines(store, tenant);
  const found = all.find((def) => def.address === name);
  if (found !== undefined) return found;
  const known = all.map((def) => def.address);
  throw new Oz0Error(
    "NOT_FOUND",
    `tenant ${tenant} has no routine ${name}; ${known.length === 0 ? "it has none (oz0 routine add, or a plugin's routines:)" : `its routines: ${known.join(", ")}`}.`,
    { data: { kind: "routine", name, tenant } },
  );
}
