// OZ-S031: an agent whose runtime runs only on some providers' models (openai-agents: OpenAI's
// Responses and Chat formats) and whose model another provider serves. Without a tenant only a
// model written as provider:model (or test) decides; against one (install, lint --tenant) its
// aliases and providers do too. An alias not set yet is decided when a job of the agent is claimed.
import { DEFAULT_MODEL_ALIAS, routeOf } from "../../models/index.js";
import { finding, type LintFinding } from "../finding.js";
import { runtimeModelProblem } from "../runtimes.js";
import { asString, placeOf, type Raw } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkRuntimeModels: LintRule = (files, context) => {
  const found: LintFinding[] = [];
  const settings = context.tenant?.modelSettings;
  const manifestUse = useOf(files.manifest?.raw.model);
  for (const agent of files.agents) {
    const runtime = asString(agent.agent.runtime);
    if (runtime === undefined) continue;
    const own = useOf(agent.agent.model);
    const route = routeOf(own ?? manifestUse ?? DEFAULT_MODEL_ALIAS, (key) => settings?.get(key));
    // An alias not set (the default one included) is the tenant's to set before a job runs; the
    // claim refuses one that leads elsewhere then.
    if (route === undefined || route.fallback === true) continue;
    const problem = runtimeModelProblem(asString(agent.agent.name) ?? agent.file, runtime, route);
    if (problem === undefined) continue;
    const path = own === undefined ? [...agent.base, "runtime"] : [...agent.base, "model", "use"];
    found.push(finding("OZ-S031", placeOf(agent, path), problem));
  }
  return found;
};

function useOf(model: unknown): string | undefined {
  return typeof model === "object" && model !== null ? asString((model as Raw).use) : undefined;
}
