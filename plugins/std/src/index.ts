// @oz0/plugin-std: the code entry oz0 loads from plugin.yaml's `main: dist/index.js`.
import { createStdPlugin } from "./plugin.js";

export { DEFAULT_REGEX_TIMEOUT_MS, readStdConfig, type StdConfig } from "./config.js";
export { createStdPlugin, STD_TOOLS, type StdPluginOptions } from "./plugin.js";
export type { ToolExample, ToolInfo } from "./tool-info.js";

export default createStdPlugin();
