// An agent's tags go on each of its jobs when the job is created, so `oz0 job search --tag`
// finds them (and tag grants can name them) even after the agent's plugin changes.
import type { PartSource } from "../tools/index.js";

/** The tags of agent `name` of `plugin`; none for a flow, or when the plugin does not load now. */
export async function agentTags(
  source: PartSource,
  tenant: string,
  part: { readonly plugin: string; readonly name: string },
): Promise<string[]> {
  try {
    const loaded = await source.loadInstalled(tenant, part.plugin);
    const agent = loaded.agents.find((entry) => entry.definition.name === part.name);
    return [...(agent?.definition.tags ?? [])];
  } catch {
    // A plugin that does not load fails the job at its first claim, with the reason; the
    // start itself records the job, untagged.
    return [];
  }
}
