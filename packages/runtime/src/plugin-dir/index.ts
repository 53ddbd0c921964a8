// Reading plugin folders: the manifest, agents, skills and code entry, with paths confined to the folder.
export { resolveInPlugin } from "./confine.js";
export { type LoadedAgent, type LoadedPlugin, type LoadedSkill, loadPluginDir, pluginRoot } from "./load.js";
