// `oz0 tool call <plugin>/<tool>.<function> --args JSON`: calls one function by hand, after
// the owner check on its address, through the dispatch path jobs use.
import type { ToolCallReport } from "@oz0/runtime";
import { type Command, CommanderError } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";

export function registerTool(program: Command, out: Output): Command {
  const tool = program.command("tool").description("call a tool's functions by hand");
  tool
    .command("call")
    .description("call a function by its address, with its arguments as JSON")
    .argument("<address>", "the function, by address: <plugin>/<tool>.<function>")
    .option("--args <json>", "the arguments, a JSON object", "{}")
    .action(async (address: string, options: { args: string }) => {
      const args = await parseArgs(options.args);
      const report = await withRuntime(out, ({ services, caller }) =>
        services.tools.call(caller, address, args),
      );
      if (report.ok) {
        out.result(report, (done) => JSON.stringify(done.result, null, 2));
        return;
      }
      if (out.json) out.writeJson(report, { pretty: true });
      else out.stderr(`oz0: ${report.address}: ${report.error?.code}: ${report.error?.message}\n`);
      throw new CommanderError(1, "oz0.tool.failed", report.error?.message ?? "the call failed");
    });
  return tool;
}

async function parseArgs(text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw await invalidInput(
      `--args is not JSON (${error instanceof Error ? error.message : String(error)}); pass an object, such as --args '{"id": 7}'`,
      "",
      "not JSON",
    );
  }
}

export type { ToolCallReport };
