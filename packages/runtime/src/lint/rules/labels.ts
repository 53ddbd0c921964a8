// OZ-S038: an agent's node labels with its plugin's are more than a node can have (MAX_LABELS):
// its jobs would go to a queue no node serves, so lint and install refuse it. OZ-S039: an agent
// lists a label its plugin already requires, which changes nothing.
import { MAX_LABELS } from "@oz0/sdk";
import { finding, type LintFinding } from "../finding.js";
import { placeOf, stringItems } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkLabels: LintRule = (files) => {
  const plugin = new Set(
    files.manifest === undefined ? [] : stringItems(files.manifest.raw.labels).map((item) => item.value),
  );
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const own = stringItems(agent.agent.labels);
    for (const item of own) {
      if (!plugin.has(item.value)) continue;
      found.push(
        finding(
          "OZ-S039",
          placeOf(agent, [...agent.base, "labels", item.index]),
          `label '${item.value}' is already required by the plugin's labels:, for every agent; remove it here`,
        ),
      );
    }
    const all = new Set([...plugin, ...own.map((item) => item.value)]);
    if (all.size > MAX_LABELS) {
      found.push(
        finding(
          "OZ-S038",
          placeOf(agent, [...agent.base, "labels"], "key"),
          `the agent needs ${all.size} node labels with its plugin's (${[...all].sort().join(", ")}); a node has at most ${MAX_LABELS}, so none could run it`,
        ),
      );
    }
  }
  return found;
};
