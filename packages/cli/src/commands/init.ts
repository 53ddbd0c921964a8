// `oz0 init [dir]`: scaffold a plugin that lints clean and runs on the offline model. The
// folder is made here first, a level at a time, so a path oz0 cannot create fails at once.
import type { Command } from "commander";
import { makeFolder, removeFolders } from "../folders.js";
import type { Output } from "../output.js";

export function registerInit(program: Command, out: Output): void {
  program
    .command("init")
    .description("scaffold a new plugin: manifest, a Markdown agent, a tool, a skill and a test-model script")
    .argument("[dir]", "folder to create the plugin in (empty or new)", ".")
    .option("--name <name>", "the plugin's name (default: the folder's name)")
    .action(async (dir: string, options: { name?: string }) => {
      const { scaffoldPlugin } = await import("@oz0/runtime");
      const made = await makeFolder(dir, { said: "oz0 init", issue: "dir" });
      const result = await scaffoldPlugin(dir, options).catch(async (error: unknown) => {
        await removeFolders(made);
        throw error;
      });
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
