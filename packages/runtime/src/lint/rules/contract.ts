// OZ-S003 and OZ-S004: an agent declares what it takes (input: text or input_schema) and what
// it answers (output: text or output_schema), since callers rely on both. A warning before
// manifest schema "1.0", an error from it on.
import { finding, type LintFinding } from "../finding.js";
import { agentLabel, placeOf, schemaAtLeast } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkContract: LintRule = (files) => {
  const severity = schemaAtLeast(files, 1) ? "error" : "warning";
  const later = severity === "warning" ? ' (an error from schema: "1.0" on)' : "";
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const place = placeOf(agent, [...agent.base, "name"]);
    const has = (key: string) => Object.hasOwn(agent.agent, key);
    if (!has("input") && !has("input_schema")) {
      found.push(
        finding(
          "OZ-S003",
          place,
          `${agentLabel(agent)} declares neither input nor input_schema; add input: text, or input_schema naming a JSON Schema file${later}`,
          { severity },
        ),
      );
    }
    if (!has("output") && !has("output_schema")) {
      found.push(
        finding(
          "OZ-S004",
          place,
          `${agentLabel(agent)} declares neither output nor output_schema; add output: text, or output_schema naming a JSON Schema file${later}`,
          { severity },
        ),
      );
    }
  }
  return found;
};
