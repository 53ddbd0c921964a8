// `oz0 init [dir]`: scaffold a plugin that lints clean and runs on the offline model.
import { scaffoldPlugin } from "@oz0/runtime";
import type { Command } from "commander";
import type { Output } from "../output.js";

export function registerInit(program: Command, out: Output): void {
  program
    .command("init")
    .description("scaffold a new plugin: manifest, a Markdown agent, a tool, a skill and a test-model script")
    .argument("[dir]", "folder to create the plugin in (empty or new)", ".")
    .option("--name <name>", "the plugin's name (default: the folder's name)")
    .action(async (dir: string, options: { name?: string }) => {
      const result = await scaffoldPlugin(dir, options);
      out.result(result, (r) =>
        [
          `created plugin ${r.plugin} in ${r.dir}`,
          ...r.files.map((file) => `  ${file}`),
          "",
          "next:",
          `  oz0 plugin lint ${dir}`,
          `  oz0 plugin install ${dir}`,
          `  oz0 run ${r.plugin}/assistant "remember to buy milk"`,
        ].join("\n"),
      );
    });
}
