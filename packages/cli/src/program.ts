// The oz0 command tree. Commands parse their arguments, call the runtime, and print; they add
// no behaviour of their own, so the HTTP API and the CLI always agree.
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerApproval } from "./commands/approval.js";
import { registerCatalog } from "./commands/catalog.js";
import { registerChat } from "./commands/chat.js";
import { registerInit } from "./commands/init.js";
import { registerInventory } from "./commands/inventory.js";
import { registerJob } from "./commands/job.js";
import { registerKill } from "./commands/kill.js";
import { registerMcp } from "./commands/mcp.js";
import { registerModel } from "./commands/model.js";
import { registerPlugin } from "./commands/plugin.js";
import { registerPolicy } from "./commands/policy.js";
import { registerProvider } from "./commands/provider.js";
import { registerRun } from "./commands/run.js";
import { registerSkill } from "./commands/skill.js";
import { registerTool } from "./commands/tool.js";
import { errorShape, type GlobalOptions, Output } from "./output.js";

/** The CLI's version, from its package.json (next to both src/ and dist/). */
const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

function buildProgram(out: Output): Command {
  const program = new Command("oz0")
    .description("oz0: agent runtime and plugin platform")
    .version(VERSION, "-V, --version", "print oz0's version")
    .option("--home <dir>", "oz0's home folder (default $OZ0_HOME or ~/.oz0)")
    .option("--tenant <name>", "the tenant to act in", "default")
    .option("--json", "print machine-readable JSON on stdout")
    .option("--server <url>", "talk to an oz0 server instead of the embedded runtime")
    .enablePositionalOptions(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.stdout(text),
      writeErr: (text) => out.stderr(text),
    })
    .hook("preAction", (_command, action) => {
      out.configure(action.optsWithGlobals<GlobalOptions>());
    });
  registerInit(program, out);
  registerPlugin(program, out);
  registerCatalog(program, out);
  registerRun(program, out);
  registerChat(program, out);
  registerJob(program, out);
  registerTool(program, out);
  registerMcp(program, out);
  registerPolicy(program, out);
  registerApproval(program, out);
  registerKill(program, out);
  registerInventory(program, out);
  registerModel(program, out);
  registerProvider(program, out);
  registerSkill(program, out);
  return program;
}

/** Runs one oz0 command line and returns its exit code. */
export async function runCli(argv: readonly string[], out: Output = new Output()): Promise<number> {
  const program = buildProgram(out);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (thrown) {
    if (thrown instanceof CommanderError) return thrown.exitCode;
    out.error(errorShape(thrown));
    return 1;
  }
}
