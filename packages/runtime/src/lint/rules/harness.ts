// OZ-S008, OZ-S009, OZ-S010, OZ-S033 and OZ-S034: what an agent's runtime makes of its fields.
// A JSON-lines harness agent uses only oz.ask_user, so other tools are never offered;
// tool_loading: lazy does nothing on a JSON-lines harness or a remote agent; a harness another
// plugin provides that is not one of the official ones is one lint cannot vouch for; harness:
// options must be ones the harness reads (the job's start refuses others); and a routine fires
// an agent only on a harness that asks before each call, in its own mode.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { askProblem, harnessOptionProblems } from "../../runtimes/index.js";
import { finding, type LintFinding } from "../finding.js";
import { type HarnessProtocol, JSONL_HARNESS_TOOLS, OFFICIAL_HARNESSES } from "../harnesses.js";
import {
  type AgentSource,
  agentLabel,
  asList,
  asMap,
  asString,
  type PluginFiles,
  placeOf,
  pluginName,
  stringItems,
} from "../source.js";
import type { TenantContext } from "../tenant.js";
import type { LintRule } from "./rule.js";

export const checkHarness: LintRule = (files, context) => {
  const found: LintFinding[] = [];
  for (const agent of files.agents) {
    const runtime = parseAgentRuntime(asString(agent.agent.runtime));
    if (runtime?.kind === "remote") {
      found.push(
        ...lazyLoading(agent, `${agentLabel(agent)} is a remote agent, whose loop runs at its provider`),
      );
    }
    if (runtime?.kind !== "harness") continue;
    const harness = knownHarness(runtime.name, files, context.tenant);
    found.push(...optionFindings(agent, runtime.name, harness, files));
    if (harness.official === false && !harness.own) {
      found.push(
        finding(
          "OZ-S010",
          placeOf(agent, [...agent.base, "runtime"]),
          unofficialHarness(agentLabel(agent), runtime.name, harness, context.tenant),
        ),
      );
    }
    if (harness.protocol !== "jsonl") continue;
    const why = `${agentLabel(agent)} runs on the JSON-lines harness '${runtime.name}'`;
    for (const tool of stringItems(agent.agent.tools)) {
      if (JSONL_HARNESS_TOOLS.includes(tool.value)) continue;
      found.push(
        finding(
          "OZ-S008",
          placeOf(agent, [...agent.base, "tools", tool.index]),
          `${why}, which uses only oz.ask_user, so it never gets '${tool.value}'; remove it, or use an ACP harness`,
        ),
      );
    }
    found.push(...lazyLoading(agent, why));
  }
  return found;
};

/** OZ-S033, for a harness whose protocol lint knows; OZ-S034, for one of this plugin's code, fired by a routine. */
function optionFindings(
  agent: AgentSource,
  name: string,
  harness: KnownHarness,
  files: PluginFiles,
): LintFinding[] {
  const options = asMap(agent.agent.harness) ?? {};
  const found: LintFinding[] = [];
  if (harness.protocol !== undefined) {
    for (const problem of harnessOptionProblems(harness.protocol, name, options)) {
      const path = problem.key === undefined ? ["harness"] : ["harness", problem.key];
      found.push(
        finding(
          "OZ-S033",
          placeOf(agent, [...agent.base, ...path]),
          `${agentLabel(agent)}: ${problem.message}`,
        ),
      );
    }
  }
  const spec = harness.spec;
  if (spec === undefined || spec.protocol !== "acp") return found;
  const asks = askProblem(spec, options);
  if (asks === undefined) return found;
  const agentName = asString(agent.agent.name);
  const plugin = pluginName(files);
  const manifest = files.manifest;
  if (manifest === undefined || agentName === undefined) return found;
  (asList(manifest.raw.routines) ?? []).forEach((raw, index) => {
    const run = asString(asMap(raw)?.run);
    if (run !== agentName && run !== `${plugin}/${agentName}`) return;
    const routine = asString(asMap(raw)?.name) ?? `routine ${index + 1}`;
    found.push(
      finding(
        "OZ-S034",
        placeOf(manifest, ["routines", index, "run"]),
        `routine ${routine} fires ${agentLabel(agent)}, and ${asks}, so not every call of its harness would reach a rule or a person; leave harness.mode and harness.config out, or start the agent by hand`,
      ),
    );
  });
  return found;
}

/**
 * OZ-S010's message: the plugin that provides the harness when lint knows it; else that no
 * plugin of the tenant does, when lint knows every plugin's harnesses; else only that this
 * plugin does not.
 */
function unofficialHarness(
  label: string,
  name: string,
  harness: KnownHarness,
  tenant: TenantContext | undefined,
): string {
  const official = `oz0's official harnesses (${Object.keys(OFFICIAL_HARNESSES).join(", ")})`;
  if (harness.plugin !== undefined) {
    return `${label} runs on harness '${name}' from plugin '${harness.plugin}', which is not one of ${official}; check that you trust it, or use an official one`;
  }
  if (tenant?.plugins.every((plugin) => plugin.harnesses !== undefined)) {
    return `${label} runs on harness '${name}', which no plugin of tenant '${tenant.tenant}' provides and which is not one of ${official}; install the plugin that provides it once you trust it, or use an official one`;
  }
  return `${label} runs on harness '${name}', which this plugin does not provide and which is not one of ${official}; another plugin must provide it: check that you trust that plugin, or use an official one`;
}

function lazyLoading(agent: AgentSource, why: string): LintFinding[] {
  if (agent.agent.tool_loading !== "lazy") return [];
  return [
    finding(
      "OZ-S009",
      placeOf(agent, [...agent.base, "tool_loading"]),
      `${why}; tool_loading: lazy does nothing there, so remove it`,
    ),
  ];
}

interface KnownHarness {
  readonly official: boolean;
  /** This plugin's code provides it (registers a runtime of its name). */
  readonly own: boolean;
  /** The tenant's plugin that provides it, when the tenant is known. */
  readonly plugin: string | undefined;
  readonly protocol: HarnessProtocol | undefined;
  /** What this plugin's code registered for it, when it does. */
  readonly spec?: {
    readonly name: string;
    readonly protocol: HarnessProtocol;
    readonly acp?: { readonly asks?: boolean; readonly mode?: string };
  };
}

function knownHarness(name: string, files: PluginFiles, tenant: TenantContext | undefined): KnownHarness {
  const official = Object.hasOwn(OFFICIAL_HARNESSES, name) ? OFFICIAL_HARNESSES[name] : undefined;
  const registered =
    files.code.status === "loaded"
      ? files.code.registrations.find(
          (registration) => registration.kind === "harness" && registration.name === name,
        )
      : undefined;
  const own = registered !== undefined;
  const spec = registered?.spec as KnownHarness["spec"];
  const ownProtocol = spec?.protocol;
  const self = pluginName(files);
  for (const plugin of tenant?.plugins ?? []) {
    if (plugin.name === self) continue;
    const provided = plugin.harnesses?.find((harness) => harness.name === name);
    if (provided !== undefined) {
      return {
        official: official !== undefined,
        own,
        plugin: plugin.name,
        protocol: official?.protocol ?? provided.protocol,
      };
    }
  }
  return {
    official: official !== undefined,
    own,
    plugin: undefined,
    protocol: official?.protocol ?? ownProtocol,
    ...(spec === undefined ? {} : { spec }),
  };
}
