// The jobs a change would strand: an update that drops or renames an agent or flow, or a remove,
// takes away the part a job that has not ended runs as, and the job could not go on. Such a
// change is refused unless forced with a reason (addresses.md, "Renaming a part"); a job it
// strands anyway ends as `part_removed` when it next runs.
import { Oz0Error } from "@oz0/sdk";
import type { Kysely } from "kysely";
import type { Database, JobStatus } from "../store/index.js";
import { bulleted } from "./errors.js";
import type { StoredPart } from "./parts.js";
import { refOf } from "./resolve.js";

/** A job that has not ended and runs as an agent or flow the change takes away. */
export interface StrandedJob {
  readonly id: string;
  /** The job's agent or flow, `<plugin>/<name>`. */
  readonly address: string;
  readonly kind: "agent" | "flow";
  readonly status: JobStatus;
}

/** Jobs in these states run again (or for the first time) and need their part then. */
const OPEN_STATUSES: readonly JobStatus[] = ["queued", "running", "waiting"];

/** At most this many jobs are named per part in a refusal; the rest are counted. */
const NAMED_PER_PART = 5;

/** The open jobs of `plugin`'s agents and flows in `before` that `after` no longer has. */
export async function strandedJobs(
  db: Kysely<Database>,
  tenant: string,
  plugin: string,
  before: readonly StoredPart[],
  after: readonly StoredPart[],
): Promise<StrandedJob[]> {
  const kept = new Set(after.map((part) => `${part.kind}:${part.name}`));
  const gone = before.filter(
    (part) => (part.kind === "agent" || part.kind === "flow") && !kept.has(`${part.kind}:${part.name}`),
  );
  if (gone.length === 0) return [];
  const rows = await db
    .selectFrom("jobs")
    .select(["id", "kind", "name", "status"])
    .where("tenant", "=", tenant)
    .where("plugin", "=", plugin)
    .where("status", "in", OPEN_STATUSES)
    .where(
      "name",
      "in",
      gone.map((part) => part.name),
    )
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const goneKinds = new Set(gone.map((part) => `${part.kind}:${part.name}`));
  return rows
    .filter((row) => goneKinds.has(`${row.kind}:${row.name}`))
    .map((row) => ({
      id: row.id,
      address: refOf({ kind: row.kind, plugin, name: row.name }).address,
      kind: row.kind,
      status: row.status,
    }));
}

/**
 * Refuses a change that strands `jobs` unless a reason forces it; returns the jobs forced past.
 * `attempt` opens the message, as for the other refusals of a change.
 */
export function refuseStrandedJobs(
  jobs: readonly StrandedJob[],
  context: { tenant: string; plugin: string; action: "update" | "remove"; reason: string | null },
  attempt: string,
): readonly StrandedJob[] {
  if (jobs.length === 0 || context.reason !== null) return jobs;
  const byPart = new Map<string, StrandedJob[]>();
  for (const job of jobs) byPart.set(job.address, [...(byPart.get(job.address) ?? []), job]);
  const lines = [...byPart].map(([address, of]) => {
    const named = of.slice(0, NAMED_PER_PART).map((job) => `${job.id} (${job.status})`);
    const more = of.length > NAMED_PER_PART ? ` and ${of.length - NAMED_PER_PART} more` : "";
    return `${of[0]!.kind} ${address}: job${of.length === 1 ? "" : "s"} ${named.join(", ")}${more}`;
  });
  const first = [...byPart.keys()][0]!;
  const fix =
    context.action === "remove"
      ? "Let those jobs end, or cancel them (oz0 job cancel <id>), before removing the plugin"
      : "Do not rename a part in place: ship the new name beside the old one, and drop the old one in a later version, once its jobs have ended";
  throw new Oz0Error(
    "PART_IN_USE",
    `${attempt}: jobs that have not ended run as parts it would take away:${bulleted(lines)}\n` +
      `${fix} (oz0 job search --agent ${first} --status running shows them); ` +
      "or go ahead anyway with --force --reason TEXT, and those jobs fail (part_removed) when they next run.",
    {
      data: {
        tenant: context.tenant,
        plugin: context.plugin,
        problems: [],
        jobs: jobs.map(({ id, address, status }) => ({ id, address, status })),
      },
    },
  );
}
