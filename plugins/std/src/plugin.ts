// The std plugin: oz0's built-in tool library, registered with the public SDK only.
import { definePlugin, type PluginObject } from "@oz0/sdk";
import { calculatorInfo, calculatorTool } from "./calculator/index.js";
import { STD_DEFAULT_CONFIG, stdConfigIssues } from "./config.js";
import { type DatetimeOptions, datetimeInfo, datetimeTool } from "./datetime/index.js";
import { type HttpOptions, httpInfo, httpTool } from "./http/index.js";
import { jsonInfo, jsonTool } from "./json/index.js";
import { textInfo, textTool } from "./text/index.js";
import type { ToolInfo } from "./tool-info.js";

/** What tests (and embedders) may replace: the clock and the name resolver. */
export interface StdPluginOptions {
  readonly datetime?: DatetimeOptions;
  readonly http?: HttpOptions;
}

/** Every std tool's metadata, in the order the docs list them. */
export const STD_TOOLS: readonly ToolInfo[] = [datetimeInfo, jsonInfo, textInfo, httpInfo, calculatorInfo];

/**
 * The std plugin object. The default export of the package is `createStdPlugin()`.
 * @example const host = await loadPluginForTest(createStdPlugin({ datetime: { now: () => 0 } }));
 */
export function createStdPlugin(options: StdPluginOptions = {}): PluginObject {
  return definePlugin({
    setup(host) {
      host.addAdmin({ defaultConfig: STD_DEFAULT_CONFIG, validate: stdConfigIssues });
      host.addTool(datetimeTool(options.datetime));
      host.addTool(jsonTool());
      host.addTool(textTool());
      host.addTool(httpTool(options.http));
      host.addTool(calculatorTool());
    },
  });
}
