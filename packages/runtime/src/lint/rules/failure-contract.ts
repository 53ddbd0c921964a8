// OZ-S022: against a tenant, an update's agents ask no more of their callers than the installed
// version's did, unless the version is a new major one: the rule an update is refused by
// (BREAKING_CHANGE), so lint says so before the update is tried.
import { type AgentContract, contractBreaks, describeBreak, nextMajor } from "../contracts.js";
import { finding, type LintFinding } from "../finding.js";
import { type AgentSource, asList, asMap, asString, placeOf, pluginName } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkFailureContract: LintRule = (files, context) => {
  const name = pluginName(files);
  const installed = context.tenant?.plugins.find((plugin) => plugin.name === name)?.contract;
  const version = asString(files.manifest?.raw.version);
  if (name === undefined || installed === undefined || version === undefined) return [];
  const agents = files.agents.flatMap((source) => {
    const agent = asString(source.agent.name);
    return agent === undefined ? [] : [{ source, name: agent, failures: failuresOf(source) }];
  });
  const after = {
    version,
    agents: agents.map((agent) => ({ name: agent.name, failures: agent.failures.map((one) => one.failure) })),
  };
  return contractBreaks(installed, after).map((one): LintFinding => {
    const agent = agents.find((entry) => entry.name === one.agent)!;
    const at = agent.failures.find((entry) => entry.failure.kind === one.kind)!.index;
    return finding(
      "OZ-S022",
      placeOf(agent.source, [...agent.source.base, "failures", at, one.change]),
      `${describeBreak(name, one)} over ${name} ${installed.version}, installed in tenant '${context.tenant?.tenant ?? ""}', ` +
        `without a new major version; callers branch on failure kinds and flags, so release this as ${nextMajor(installed.version)}`,
    );
  });
};

/** The agent's failure kinds as written, each with its index; malformed ones are the schema's to report. */
function failuresOf(agent: AgentSource): { index: number; failure: AgentContract["failures"][number] }[] {
  return (asList(agent.agent.failures) ?? []).flatMap((item, index) => {
    const map = asMap(item);
    const kind = asString(map?.kind);
    if (map === undefined || kind === undefined) return [];
    const flag = (key: string) => map[key] === true;
    return [
      {
        index,
        failure: { kind, retryable: flag("retryable"), partial: flag("partial"), person: flag("person") },
      },
    ];
  });
}
