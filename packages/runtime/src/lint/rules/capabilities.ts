// OZ-S018: plugin.yaml's capabilities: and tools: describe what the code really registers; the
// host and admin surfaces read them, and the loader refuses a plugin where they disagree.
import { CAPABILITY_KINDS, capabilityMismatch } from "@oz0/sdk/internal";
import { finding, type LintFinding } from "../finding.js";
import { asList, asMap, asString, placeOf, stringItems } from "../source.js";
import type { LintRule } from "./rule.js";

export const checkCapabilities: LintRule = (files) => {
  const manifest = files.manifest;
  // A code entry that failed to load registered nothing lint can compare (OZ-E004 says why).
  if (manifest === undefined || files.code.status === "failed") return [];
  const registrations = files.code.status === "loaded" ? files.code.registrations : [];
  const hasCode = files.code.status === "loaded";
  const found: LintFinding[] = [];
  const whole = Object.hasOwn(manifest.raw, "capabilities") ? ["capabilities"] : hasCode ? ["main"] : [];
  const declared = stringItems(manifest.raw.capabilities).filter((item) =>
    (CAPABILITY_KINDS as readonly string[]).includes(item.value),
  );
  const { undeclared, unregistered } = capabilityMismatch(
    declared.map((item) => item.value),
    registrations,
  );
  for (const word of undeclared) {
    found.push(
      finding(
        "OZ-S018",
        placeOf(manifest, whole, "key"),
        `the code registers ${word}, which capabilities: does not list; add ${word} to it`,
      ),
    );
  }
  const nothing = hasCode
    ? "the code never registers"
    : "nothing registers: the plugin has no code entry (main:)";
  for (const item of declared) {
    if (!unregistered.includes(item.value)) continue;
    found.push(
      finding(
        "OZ-S018",
        placeOf(manifest, ["capabilities", item.index]),
        `capabilities: lists ${item.value}, which ${nothing}; remove it, or register it in setup(host)`,
      ),
    );
  }

  const registered = registrations
    .filter((registration) => registration.kind === "tool")
    .map((registration) => registration.name);
  const declaredTools: { id: string; index: number }[] = [];
  (asList(manifest.raw.tools) ?? []).forEach((item, index) => {
    const tool = asMap(item);
    const id = asString(tool?.id);
    if (id !== undefined && tool?.mcp === undefined) declaredTools.push({ id, index });
  });
  for (const id of registered) {
    if (declaredTools.some((tool) => tool.id === id)) continue;
    const at = Object.hasOwn(manifest.raw, "tools") ? ["tools"] : ["main"];
    found.push(
      finding(
        "OZ-S018",
        placeOf(manifest, at, "key"),
        `the code registers tool '${id}', which tools: does not declare; add - id: ${id}`,
      ),
    );
  }
  // A kind: Tool manifest's tool may be declared too, as the loader allows.
  const described = files.toolManifests.map((tool) => asString(tool.raw.name));
  for (const tool of declaredTools) {
    if (registered.includes(tool.id) || described.includes(tool.id)) continue;
    found.push(
      finding(
        "OZ-S018",
        placeOf(manifest, ["tools", tool.index, "id"]),
        `tools: declares '${tool.id}', which neither the code registers nor an mcp: server provides; register it in setup(host), or give it an mcp: server`,
      ),
    );
  }
  return found;
};
