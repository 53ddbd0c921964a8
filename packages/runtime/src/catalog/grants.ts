// What of other plugins a plugin's agents and flows may reach: only what its `uses:` grants.
// The spec's rule is that the plugin in an address is the plugin itself or one its manifest
// lists under `uses:`, with the part listed under that plugin's key; install checked that each
// used plugin is there at a version in the range. A call or a delegation `uses:` does not grant
// is refused at run time with the entry to add, whatever `tools:` or `delegation:` lists.
import { Oz0Error, type PluginManifest } from "@oz0/sdk";

/** Another plugin's function, or agent, that a part of plugin `manifest.name` reaches for. */
export type GrantTarget =
  | { readonly kind: "function"; readonly plugin: string; readonly tool: string; readonly function: string }
  | { readonly kind: "agent"; readonly plugin: string; readonly name: string };

/**
 * The NOT_GRANTED refusal of plugin `manifest` reaching for `target`, or undefined when it may
 * (its own part, or one its `uses:` lists: a function by `<tool>.<function>` or `<tool>.*`, an
 * agent by name).
 * @example grantRefusal(manifest, { kind: "agent", plugin: "github", name: "oz0-github" })?.message
 */
export function grantRefusal(manifest: PluginManifest, target: GrantTarget): Oz0Error | undefined {
  const own = manifest.name;
  if (target.plugin === own) return undefined;
  const entry = manifest.uses?.[target.plugin];
  const list = target.kind === "function" ? "tools" : "agents";
  const name = target.kind === "function" ? `${target.tool}.${target.function}` : target.name;
  const listed: readonly string[] = (target.kind === "function" ? entry?.tools : entry?.agents) ?? [];
  if (listed.includes(name)) return undefined;
  if (target.kind === "function" && listed.includes(`${target.tool}.*`)) return undefined;
  const address = `${target.plugin}/${name}`;
  const missing =
    entry === undefined
      ? `uses: of ${own} does not list plugin ${target.plugin}`
      : `uses.${target.plugin}.${list} of ${own} does not list ${name}${listed.length === 0 ? "" : ` (it lists ${listed.join(", ")})`}`;
  const act = target.kind === "function" ? `call ${address}` : `delegate to ${address}`;
  const message =
    `${missing}, so ${own}'s parts may not ${act}: another plugin's ${target.kind} is reached only when uses: grants it. ` +
    `Add ${name} under uses.${target.plugin}.${list} in ${own}'s plugin.yaml ` +
    `(uses: { ${target.plugin}: { ${list}: [${name}] } }) and update the plugin`;
  return new Oz0Error("NOT_GRANTED", message, {
    data: { plugin: own, address, list: `uses.${target.plugin}.${list}` },
  });
}
