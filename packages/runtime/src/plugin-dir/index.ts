// Reading plugin folders: the manifest, agents, skills, code entry and kind: Tool manifests, with
// paths confined to the folder.
export { isEscape, listInPlugin, readInPlugin, resolveInPlugin, writeInPlugin } from "./confine.js";
export { type ForeignFormat, type FormatRefusal, foreignFormat, SKILL_FILE_LIMITS } from "./formats/index.js";
export {
  type LoadedAgent,
  type LoadedPlugin,
  type LoadedSkill,
  type LoadOptions,
  loadPluginDir,
  type PluginDeclarations,
  pluginRoot,
} from "./load.js";
export {
  importMcpServers,
  type McpImport,
  type McpImportedTool,
  type McpImportOptions,
  type McpImportSecret,
} from "./mcp-servers.js";
export {
  type LoadedToolManifest,
  type PluginToolSpec,
  pluginToolSpec,
  pluginToolSpecs,
  type ToolManifestHandler,
  toolDisabled,
  toolRefTarget,
} from "./tool-manifests.js";
