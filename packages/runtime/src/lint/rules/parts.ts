// Agent names are unique in a plugin (and in a tenant): an agent defined twice, inline and in a
// file or in two files, is refused by the loader, so lint reports it as a schema error.
import { finding, type LintFinding } from "../finding.js";
import { asString, placeOf } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkDuplicateAgents: LintRule = (files) => {
  const seen = new Map<string, string>();
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const name = asString(agent.agent.name);
    if (name === undefined) continue;
    const earlier = seen.get(name);
    // Inline duplicates are the manifest schema's to report; this is about agents across files.
    if (earlier !== undefined && !(earlier === agent.file && agent.format === "inline")) {
      found.push(
        finding(
          "OZ-E001",
          placeOf(agent, [...agent.base, "name"]),
          `agent '${name}' is defined twice, in ${earlier} and in ${agent.file}; keep one`,
        ),
      );
    }
    if (earlier === undefined) seen.set(name, agent.file);
  }
  return found;
};
