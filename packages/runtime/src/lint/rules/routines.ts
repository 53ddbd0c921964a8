// OZ-S028 and OZ-S029: a routine of this plugin that would not run as written. A routine's
// tools are a subset of its agent's, and tools and limits belong to an agent's job, not a
// flow's (OZ-S028). Its identity's agents include what it runs, a job.ended routine does not
// watch the agent it runs (it would fire itself without end), and croner reads its schedule in
// its time zone (OZ-S029). Another plugin's agent is checked when the routine fires.
import { identityCovers, routineEvent, toolEntryCovered } from "@oz0/sdk/internal";
import { Cron } from "croner";
import { finding, type LintFinding } from "../finding.js";
import { asList, asMap, asString, placeOf, pluginName, stringItems } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkRoutines: LintRule = (files) => {
  const manifest = files.manifest;
  const plugin = pluginName(files);
  if (manifest === undefined || plugin === undefined) return [];
  const found: LintFinding[] = [];
  const agents = new Map(
    files.agents.flatMap((agent) => {
      const name = asString(agent.agent.name);
      return name === undefined
        ? []
        : [[name, stringItems(agent.agent.tools).map((item) => item.value)] as const];
    }),
  );
  const flows = new Set(
    (asList(manifest.raw.flows) ?? []).flatMap((flow) => {
      const name = asString(asMap(flow)?.name);
      return name === undefined ? [] : [name];
    }),
  );
  /** A name of this plugin's, bare, for `<plugin>/<name>` or `<name>`; undefined for another plugin's. */
  const own = (text: string): string | undefined => {
    const slash = text.indexOf("/");
    if (slash === -1) return text;
    return text.slice(0, slash) === plugin ? text.slice(slash + 1) : undefined;
  };
  (asList(manifest.raw.routines) ?? []).forEach((raw, r) => {
    const routine = asMap(raw);
    const run = asString(routine?.run);
    if (routine === undefined || run === undefined) return;
    const name = asString(routine.name) ?? `routine ${r + 1}`;
    const at = (...path: (string | number)[]) => placeOf(manifest, ["routines", r, ...path]);
    const target = own(run);
    const address = target === undefined ? run : `${plugin}/${target}`;
    if (target !== undefined && flows.has(target)) {
      for (const key of ["tools", "limits"]) {
        if (routine[key] !== undefined) {
          found.push(
            finding(
              "OZ-S028",
              at(key),
              `routine ${name} runs flow ${address}, and ${key}: applies to an agent's job; leave it out (a flow's steps name what it calls)`,
            ),
          );
        }
      }
    }
    const agentTools = target === undefined ? undefined : agents.get(target);
    if (agentTools !== undefined) {
      for (const item of stringItems(routine.tools)) {
        if (!toolEntryCovered(item.value, plugin, agentTools, plugin)) {
          found.push(
            finding(
              "OZ-S028",
              at("tools", item.index),
              `routine ${name} lists ${item.value}, which agent ${target} may not call (its tools: ${agentTools.join(", ") || "none"}); a routine's tools are a subset of its agent's`,
            ),
          );
        }
      }
    }
    const scope = stringItems(asMap(routine.identity)?.agents).map((item) => item.value);
    if (scope.length > 0 && !identityCovers(scope, address, plugin)) {
      found.push(
        finding(
          "OZ-S029",
          at("identity", "agents"),
          `routine ${name} runs ${address}, which its identity's agents (${scope.join(", ")}) leave out; add it, or the routine's jobs are refused`,
        ),
      );
    }
    const event = asString(routine.event);
    const read = event === undefined ? undefined : routineEvent(event);
    if (read !== undefined && "kind" in read && read.kind === "job.ended") {
      const watched = own(read.run);
      if ((watched === undefined ? read.run : `${plugin}/${watched}`) === address) {
        found.push(
          finding(
            "OZ-S029",
            at("event"),
            `routine ${name} runs ${address} when a job of ${address} ends, which would fire it again without end; watch another agent`,
          ),
        );
      }
    }
    const schedule = asString(routine.schedule);
    if (schedule !== undefined) {
      const problem = scheduleProblem(schedule, asString(routine.timezone));
      if (problem !== undefined) found.push(finding("OZ-S029", at("schedule"), problem));
    }
  });
  return found;
};

/** Why croner cannot read `schedule` in `timezone`; undefined when it can, or when the schema already refuses it. */
function scheduleProblem(schedule: string, timezone: string | undefined): string | undefined {
  let cron: Cron | undefined;
  try {
    cron = new Cron(schedule, { paused: true, timezone: timezone ?? "UTC" });
    if (cron.nextRun(new Date()) === null)
      return `the schedule '${schedule}' never fires; give it a date that comes`;
    return undefined;
  } catch (error) {
    // A time zone the schema refused is reported there, once.
    if (timezone !== undefined && !validZone(timezone)) return undefined;
    return `croner cannot read the schedule '${schedule}': ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    cron?.stop();
  }
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
