// The owner check of a job's own agent or flow at every claim. A part taken away after the job
// started (an update forced past the job, or a forced remove) ends the job as `part_removed`,
// saying which change took it, instead of as a platform fault.
import { isOz0Error } from "@oz0/sdk";
import { SetupFailure } from "../events/index.js";
import type { JobRun } from "./job-run.js";

/**
 * Checks that the job's agent or flow is still its plugin's, and that no other plugin defines
 * its name too (NAME_CLASH). One that is gone throws a SetupFailure of kind `part_removed`.
 */
export async function checkOwnPart(run: JobRun, kind: "agent" | "flow"): Promise<void> {
  const { row, deps } = run;
  try {
    await deps.source.resolvePart(row.tenant, kind, run.address);
  } catch (error) {
    if (!isOz0Error(error, "NOT_FOUND") && !isOz0Error(error, "OWNER_MISMATCH")) throw error;
    const change = await deps.jobs.store.db
      .selectFrom("plugin_changes")
      .selectAll()
      .where("tenant", "=", row.tenant)
      .where("plugin", "=", row.plugin)
      .orderBy("seq", "desc")
      .executeTakeFirst();
    const known = change !== undefined && change.at >= row.created_at;
    const took = !known
      ? `it is no longer in tenant ${row.tenant} (${error.message})`
      : change.action === "remove"
        ? `plugin ${row.plugin} ${change.version} was removed from tenant ${row.tenant} after the job started`
        : `plugin ${row.plugin} was updated from ${change.previous_version ?? "?"} to ${change.version} after the job started, and that version has no ${kind} ${row.name}`;
    const forced = known && change.forced_reason !== null ? ` (forced: ${change.forced_reason})` : "";
    const fix =
      known && change.action === "remove"
        ? `Install ${row.plugin} again to start a new job of it.`
        : "Start a new job of the part that replaced it.";
    throw new SetupFailure(
      "part_removed",
      `${kind} ${run.address} was taken away, so this job cannot go on: ${took}${forced}. ${fix}`,
      error.code,
    );
  }
}
