// OZ-S022: against a tenant, an update's agents ask no more of their callers than the installed
// version's did, unless the version is a new major one: the rule an update is refused by
// (BREAKING_CHANGE), so lint says so before the update is tried.
import { type AgentContract, contractBreaks, describeBreak, nextMajor } from "../../catalog/index.js";
import { finding, type LintFinding } from "../finding.js";
import { type AgentSource, asList, asMap, asString, placeOf, pluginName } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkFailureContract: LintRule = (files, context) => {
  const name = pluginName(files);
  const installed = context.tenant?.plugins.find((plugin) => plugin.name === name)?.contract;
  const version = asString(files.manifest?.raw.version);
  if (name === undefined || installed === undefined || version === undefined) return [];
  const agents = files.agents.flatMap((agent) => {
    const contract = contractOf(agent);
    return contract === undefined ? [] : [{ source: agent, contract }];
  });
  const breaks = contractBreaks(installed, { version, agents: agents.map((one) => one.contract) });
  return breaks.map((one): LintFinding => {
    const agent = agents.find((entry) => entry.contract.name === one.agent)!;
    const index = agent.contract.failures.findIndex((failure) => failure.kind === one.kind);
    const key = one.change === "kind" ? "kind" : one.change;
    return finding(
      "OZ-S022",
      placeOf(agent.source, [...agent.source.base, "failures", indexes(agent.source)[index] ?? 0, key]),
      `${describeBreak(name, one)} over ${name} ${installed.version}, installed in tenant '${context.tenant?.tenant ?? ""}', ` +
        `without a new major version; callers branch on failure kinds and flags, so release this as ${nextMajor(installed.version)}`,
    );
  });
};

/** The agent's failure kinds as written, the malformed ones left to the schema's findings. */
function contractOf(agent: AgentSource): AgentContract | undefined {
  const name = asString(agent.agent.name);
  if (name === undefined) return undefined;
  const failures = (asList(agent.agent.failures) ?? []).flatMap((item) => {
    const map = asMap(item);
    const kind = asString(map?.kind);
    if (map === undefined || kind === undefined) return [];
    return [
      { kind, retryable: map.retryable === true, partial: map.partial === true, person: map.person === true },
    ];
  });
  return { name, failures };
}

/** The index in the file of each failure `contractOf` kept, in its order. */
function indexes(agent: AgentSource): number[] {
  return (asList(agent.agent.failures) ?? []).flatMap((item, index) =>
    asString(asMap(item)?.kind) === undefined ? [] : [index],
  );
}
