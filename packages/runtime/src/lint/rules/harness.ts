// OZ-S008, OZ-S009 and OZ-S010: what an agent's runtime makes of its fields. A JSON-lines
// harness agent uses only oz.ask_user, so other tools are never offered; tool_loading: lazy
// does nothing on a JSON-lines harness or a remote agent; and a harness another plugin
// provides that is not one of the official ones is one lint cannot vouch for.
import { parseAgentRuntime } from "@oz0/sdk/internal";
import { finding, type LintFinding } from "../finding.js";
import { type HarnessProtocol, JSONL_HARNESS_TOOLS, OFFICIAL_HARNESSES } from "../harnesses.js";
import {
  type AgentSource,
  agentLabel,
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
  const ownProtocol = (registered?.spec as { readonly protocol?: HarnessProtocol } | undefined)?.protocol;
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
  };
}
