// Task queues: where a job may run. A job goes to its plugin's queue, `pool.<plugin>`, or
// `pool.<plugin>.<labels>` when its plugin or its agent requires node labels; when its tenant
// mapped the plugin to a shared pool, to that pool's queue with the selector's labels added,
// `pool.<pool>.<labels>`. Tags place nothing: labels decide which nodes run a job. A node
// serves the queues of its pool (the plugins' own pools when it has none) whose labels are all
// among its own, and only jobs whose format it understands.
import { assertName, MAX_LABELS, Oz0Error } from "@oz0/sdk";
import { CompiledQuery } from "kysely";
import { type Store, tenantCacheOf } from "../store/index.js";
import type { PartSource } from "../tools/index.js";

/**
 * The job format this oz0 understands: what its nodes can replay and run. A job records the
 * oldest format that runs it (`needs_format`); a node claims only jobs of its format or older,
 * so a job that needs a newer node waits, queued, for one (docs/deploy.md, "Upgrades").
 */
export const JOB_FORMAT = 1;

/** Where a job runs: its queue's name and what the claim matches. */
export interface Placement {
  readonly queue: string;
  /** The shared pool; null for the plugin's own. */
  readonly pool: string | null;
  /** The labels it requires, sorted. */
  readonly labels: readonly string[];
}

/** What a node serves: its shared pool (null: the plugins' own pools), its labels and its job format. */
export interface NodeServes {
  readonly pool: string | null;
  readonly labels: readonly string[];
  readonly format: number;
}

/** The queue name of a pool and labels: `pool.<pool>` or `pool.<pool>.<label>.<label>`. */
export function queueName(pool: string, labels: readonly string[]): string {
  return labels.length === 0 ? `pool.${pool}` : `pool.${pool}.${labels.join(".")}`;
}

/** The labels as stored: sorted, comma-joined, '' for none. */
export function storedLabels(labels: readonly string[]): string {
  return [...labels].sort().join(",");
}

export function parseStoredLabels(stored: string): string[] {
  return stored === "" ? [] : stored.split(",");
}

/**
 * Checks and sorts a node's or a selector's labels: each a label name, none twice, at most
 * MAX_LABELS. Refuses with INVALID_NAME or INVALID_INPUT, saying which.
 */
export function checkedLabels(labels: readonly string[], what: string): string[] {
  for (const label of labels) assertName("label", label);
  const unique = [...new Set(labels)].sort();
  if (unique.length !== labels.length) {
    throw new Oz0Error("INVALID_INPUT", `${what} lists a label twice: ${labels.join(", ")}`, {
      data: { issues: [{ path: "labels", message: "a label is listed twice" }] },
    });
  }
  if (unique.length > MAX_LABELS) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `${what} has ${unique.length} labels; at most ${MAX_LABELS} are allowed`,
      { data: { issues: [{ path: "labels", message: `at most ${MAX_LABELS}` }] } },
    );
  }
  return unique;
}

/**
 * Every set of labels a node with `labels` serves, as stored: each subset, '' included. The
 * claim matches a job's labels against this list, one index lookup on either engine.
 */
export function servedLabelSets(labels: readonly string[]): string[] {
  const sorted = [...labels].sort();
  const sets: string[] = [];
  for (let mask = 0; mask < 1 << sorted.length; mask++) {
    sets.push(sorted.filter((_, index) => (mask & (1 << index)) !== 0).join(","));
  }
  return sets;
}

/** Whether a node serving `node` may run a job placed at `job`. */
export function serves(
  node: NodeServes,
  job: { readonly pool: string | null; readonly labels: string; readonly needs_format: number },
): boolean {
  if (node.pool !== job.pool) return false;
  if (job.needs_format > node.format) return false;
  const have = new Set(node.labels);
  return parseStoredLabels(job.labels).every((label) => have.has(label));
}

/**
 * Where a job of `part` of `tenant` runs: the labels its plugin and its agent require, and the
 * shared pool its tenant mapped the plugin to, if any. A plugin that does not load now places
 * the job in its own pool without labels: its first claim fails it with the reason.
 */
export async function placementOf(
  store: Store,
  source: PartSource,
  tenant: string,
  part: { readonly plugin: string; readonly name: string; readonly kind: "agent" | "flow" },
): Promise<Placement> {
  let required: string[] = [];
  try {
    const loaded = await source.loadInstalled(tenant, part.plugin);
    const agent =
      part.kind === "agent" ? loaded.agents.find((entry) => entry.definition.name === part.name) : undefined;
    required = [...(loaded.manifest.labels ?? []), ...(agent?.definition.labels ?? [])];
  } catch {
    // As for its tags: the job is recorded, and its claim says why its plugin does not load.
  }
  const mapped = await poolMappingOf(store, tenant, part.plugin);
  const labels = [...new Set([...required, ...parseStoredLabels(mapped?.labels ?? "")])].sort();
  const pool = mapped?.pool ?? null;
  return { queue: queueName(pool ?? part.plugin, labels), pool, labels };
}

/**
 * The shared pool `plugin` of `tenant` is mapped to, if any, kept with the tenant's catalog
 * (a mapping moves the catalog version on, migration 25): a start reads no row for it.
 */
function poolMappingOf(
  store: Store,
  tenant: string,
  plugin: string,
): Promise<Readonly<{ pool: string; labels: string }> | undefined> {
  return tenantCacheOf(store.db).get(tenant, `pool:${plugin}`, async () => {
    const { rows } = await store.run<{ pool: string; labels: string }>(
      CompiledQuery.raw(poolQuery(store), [tenant, plugin]),
    );
    const mapped = rows[0];
    return mapped === undefined ? undefined : Object.freeze({ pool: mapped.pool, labels: mapped.labels });
  });
}

const poolQueries = new WeakMap<Store, string>();

/** The read of a plugin's pool mapping, compiled once per store: building it cost a start more than running it. */
function poolQuery(store: Store): string {
  let text = poolQueries.get(store);
  if (text === undefined) {
    text = store.db
      .selectFrom("plugin_pools")
      .select(["pool", "labels"])
      .where("tenant", "=", "")
      .where("plugin", "=", "")
      .compile().sql;
    poolQueries.set(store, text);
  }
  return text;
}

/** The queue columns of a new job of `part` (jobs/queues.ts). */
export async function placed(
  store: Store,
  source: PartSource,
  tenant: string,
  part: { readonly plugin: string; readonly name: string; readonly kind: "agent" | "flow" },
): Promise<{ queue: string; pool: string | null; labels: string }> {
  const placement = await placementOf(store, source, tenant, part);
  return { queue: placement.queue, pool: placement.pool, labels: storedLabels(placement.labels) };
}

/** A tenant's plugin mapped to a shared pool, as `oz0 node pool list` shows it. */
export interface PoolMapping {
  readonly plugin: string;
  readonly pool: string;
  /** The labels the selector adds to what the plugin requires. */
  readonly labels: readonly string[];
  /** The queue the plugin's jobs without labels of their own go to. */
  readonly queue: string;
  readonly createdBy: string;
  readonly createdAt: number;
}

/** The tenant's plugins mapped to shared pools, by plugin. */
export async function poolMappings(store: Store, tenant: string): Promise<PoolMapping[]> {
  const rows = await store.db
    .selectFrom("plugin_pools")
    .selectAll()
    .where("tenant", "=", tenant)
    .orderBy("plugin")
    .execute();
  return rows.map((row) => {
    const labels = parseStoredLabels(row.labels);
    return {
      plugin: row.plugin,
      pool: row.pool,
      labels,
      queue: queueName(row.pool, labels),
      createdBy: row.created_by,
      createdAt: Number(row.created_at),
    };
  });
}

/**
 * Maps `plugin` of `tenant` to shared pool `pool` with the selector's `labels`: its jobs started
 * from now on run on the nodes started with `--pool <pool>` and those labels. Jobs already
 * queued keep their queue.
 */
export async function mapPool(
  store: Store,
  tenant: string,
  mapping: {
    readonly plugin: string;
    readonly pool: string;
    readonly labels: readonly string[];
    readonly by: string;
  },
): Promise<PoolMapping> {
  assertName("plugin", mapping.plugin);
  assertName("pool", mapping.pool);
  const labels = storedLabels(checkedLabels(mapping.labels, `the selector of pool ${mapping.pool}`));
  await store.db
    .insertInto("plugin_pools")
    .values({
      tenant,
      plugin: mapping.plugin,
      pool: mapping.pool,
      labels,
      created_by: mapping.by,
      created_at: store.clockSql,
    })
    .onConflict((conflict) =>
      conflict.columns(["tenant", "plugin"]).doUpdateSet({
        pool: mapping.pool,
        labels,
        created_by: mapping.by,
        created_at: store.clockSql,
      }),
    )
    .execute();
  const found = (await poolMappings(store, tenant)).find((entry) => entry.plugin === mapping.plugin);
  return found!;
}

/** Takes `plugin` of `tenant` back to its own pool; false when it was not mapped. */
export async function unmapPool(store: Store, tenant: string, plugin: string): Promise<boolean> {
  const result = await store.db
    .deleteFrom("plugin_pools")
    .where("tenant", "=", tenant)
    .where("plugin", "=", plugin)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
