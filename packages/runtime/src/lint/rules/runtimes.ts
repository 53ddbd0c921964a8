// OZ-S023: an agent that names a runtime this oz0 does not have is refused, never run on oz0's
// own loop in its place (../runtimes.ts has the runtimes and the message).
import { finding, type LintFinding } from "../finding.js";
import { runtimeProblem } from "../runtimes.js";
import { asString, placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkRuntimes: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const runtime = asString(agent.agent.runtime);
    const problem = runtimeProblem(asString(agent.agent.name) ?? agent.file, runtime);
    if (problem !== undefined) {
      found.push(finding("OZ-S023", placeOf(agent, [...agent.base, "runtime"]), problem));
    }
  }
  return found;
};
