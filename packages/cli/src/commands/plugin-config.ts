// `oz0 plugin config <plugin> [--set JSON | --unset]`: show or set a plugin's configuration in
// the tenant, checked by the plugin's admin spec and shown through its redaction.

import type { PluginConfigView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";

export function registerPluginConfig(plugin: Command, out: Output): void {
  plugin
    .command("config")
    .description(
      "show a plugin's config in the tenant, or set it (--set JSON) or go back to its defaults (--unset)",
    )
    .argument("<plugin>", "an installed plugin")
    .option("--set <json>", "the config, a JSON object over the plugin's defaults")
    .option("--unset", "forget what was set and use the plugin's defaults")
    .action(async (name: string, options: { set?: string; unset?: boolean }) => {
      if (options.set !== undefined && options.unset === true) {
        throw await invalidInput("give --set or --unset, not both", "set", "given with --unset");
      }
      const config = options.set === undefined ? undefined : await parseJson(options.set);
      const view = await withRuntime(out, ({ services, caller }) => {
        if (options.unset === true) return services.pluginConfig.unset(caller, name);
        if (options.set !== undefined) return services.pluginConfig.set(caller, name, config);
        return services.pluginConfig.show(caller, name);
      });
      out.result(view, draw);
    });
}

async function parseJson(text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw await invalidInput(
      `--set takes JSON, such as '{"limit": 10}': ${(cause as Error).message}`,
      "",
      "not JSON",
    );
  }
}

function draw(view: PluginConfigView): string {
  const origin = view.set ? "set in this tenant over its defaults" : "its defaults";
  return `${view.plugin} config (${origin}):\n${JSON.stringify(view.config, null, 2)}`;
}
