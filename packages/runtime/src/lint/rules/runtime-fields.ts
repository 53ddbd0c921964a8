// OZ-S035: agent fields the agent's runtime never reads. A remote agent's loop runs at its
// provider, with no skills and no oz0 tools (so no MCP sampling and no oz.delegate): its skills
// and delegation: are refused rather than taken and left unread, and so is its model: unless
// its runtime runs the agent on the model it names (remote:anthropic), whose words on it are
// OZ-S045's. A harness agent's model: is read: it answers its MCP tools' sampling requests.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { type AgentModel, agentRuntimes } from "../../runtimes/index.js";
import { finding, type LintFinding } from "../finding.js";
import { type AgentSource, agentLabel, asList, asMap, asString, placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkRuntimeFields: LintRule = (files) => {
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const value = asString(agent.agent.runtime);
    const runtime = parseAgentRuntime(value);
    // A runtime this oz0 does not have is OZ-S023's.
    if (runtime === undefined || agentRuntimes.select(value) === undefined) continue;
    if (runtime.kind !== "remote") continue;
    const at = (field: string) => placeOf(agent, [...agent.base, field], "key");
    const label = agentLabel(agent);
    const selected = agentRuntimes.select(value);
    if (selected?.modelProblem !== undefined) {
      const problem = selected.modelProblem(modelOf(agent.agent.model));
      if (problem !== undefined) {
        const where =
          agent.agent.model === undefined ? placeOf(agent, [...agent.base, "runtime"]) : at("model");
        found.push(
          finding("OZ-S045", where, `${label} runs at a provider (runtime ${value}) and ${problem}`),
        );
      }
    } else if (agent.agent.model !== undefined) {
      found.push(
        finding(
          "OZ-S035",
          at("model"),
          `${label} runs at an outside agent (runtime ${value}), whose own model makes its calls, so model: is never read; remove it`,
        ),
      );
    }
    const named = skillsNamed(agent);
    if (named.length > 0) {
      found.push(
        finding(
          "OZ-S035",
          at("skills"),
          `${label} runs at an outside agent (runtime ${value}), which gets no skills, so ${named.join(", ")} would never reach it; write skills: [] or remove them`,
        ),
      );
    }
    if (agent.agent.delegation !== undefined) {
      found.push(
        finding(
          "OZ-S035",
          at("delegation"),
          `${label} runs at an outside agent (runtime ${value}), which gets no oz.delegate and never starts oz0's agents, so delegation: is never read; remove it`,
        ),
      );
    }
  }
  return found;
};

/** The agent's `model:` as its definition reads it: a `provider:model` text, or `{ use, options, script }`. */
function modelOf(value: unknown): AgentModel | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return { use: value };
  const map = asMap(value);
  return {
    use: asString(map?.use) ?? "",
    ...(map?.options === undefined ? {} : { options: map.options }),
    ...(map?.script === undefined ? {} : { script: map.script }),
  };
}

/** The skills `skills:` names: its list, or its `use:` list (skills.propose is OZ-S012's). */
function skillsNamed(agent: AgentSource): string[] {
  const skills = agent.agent.skills;
  const list = asList(skills) ?? asList(asMap(skills)?.use) ?? [];
  return list.filter((entry): entry is string => typeof entry === "string");
}
