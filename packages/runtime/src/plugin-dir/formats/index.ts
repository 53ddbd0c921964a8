// The plugin formats people already have, read onto oz0's loaded-plugin model: Claude Code
// plugin folders and standalone Agent Skills. A folder with a plugin.yaml is oz0's own, whatever
// else it holds.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { LoadedPlugin } from "../load.js";
import { AGENT_SKILL_FORMAT, isAgentSkill, loadAgentSkill } from "./agent-skill.js";
import { CLAUDE_CODE_FORMAT, isClaudeCodePlugin, loadClaudeCodePlugin } from "./claude-code.js";

export type { FormatRefusal } from "./common.js";
export { SKILL_FILE_LIMITS } from "./common.js";

export type ForeignFormat = typeof CLAUDE_CODE_FORMAT | typeof AGENT_SKILL_FORMAT;

/** The foreign format of the folder `root`, or `undefined` for an oz0 plugin (or no plugin). */
export async function foreignFormat(root: string): Promise<ForeignFormat | undefined> {
  if ((await stat(join(root, "plugin.yaml")).catch(() => undefined))?.isFile() === true) return undefined;
  if (await isClaudeCodePlugin(root)) return CLAUDE_CODE_FORMAT;
  if (await isAgentSkill(root)) return AGENT_SKILL_FORMAT;
  return undefined;
}

/** Loads a folder `foreignFormat` recognised; throws INVALID_PLUGIN listing each refused part. */
export async function loadForeignPlugin(root: string): Promise<LoadedPlugin> {
  return (await isClaudeCodePlugin(root)) ? loadClaudeCodePlugin(root) : loadAgentSkill(root);
}
