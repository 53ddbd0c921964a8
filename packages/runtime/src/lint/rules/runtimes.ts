// OZ-S023: an agent that names a runtime this oz0 does not have is refused, never run on oz0's
// own loop in its place (../runtimes.ts has the runtimes and the message). OZ-S036: the
// harness: options a registered runtime refuses; OZ-S037: tools a remote agent never gets.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { agentRuntimes } from "../../runtimes/index.js";
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
      continue;
    }
    const name = asString(agent.agent.name) ?? agent.file;
    const selected = runtime === undefined ? undefined : agentRuntimes.select(runtime);
    const harness = agent.agent.harness;
    const options =
      typeof harness === "object" && harness !== null && !Array.isArray(harness)
        ? (harness as Record<string, unknown>)
        : undefined;
    for (const optionProblem of selected?.optionProblems?.(options) ?? []) {
      const at = placeOf(agent, [...agent.base, options === undefined ? "runtime" : "harness"]);
      found.push(finding("OZ-S036", at, `agent '${name}': ${optionProblem}`));
    }
    if (parseAgentRuntime(runtime)?.kind === "remote" && Array.isArray(agent.agent.tools)) {
      agent.agent.tools.forEach((tool, index) => {
        if (typeof tool !== "string") return;
        found.push(
          finding(
            "OZ-S037",
            placeOf(agent, [...agent.base, "tools", index]),
            `agent '${name}' runs at an outside agent (runtime ${runtime}), which never gets '${tool}'; remove it`,
          ),
        );
      });
    }
  }
  return found;
};
