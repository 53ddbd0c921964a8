// `oz0 tool call <plugin>/<tool>.<function> --args JSON`: calls one function by hand, after
// the owner check on its address, through the dispatch path jobs use.
import type { ToolCallReport } from "@oz0/runtime";
import { Oz0Error } from "@oz0/sdk";
import { type Command, CommanderError } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";

export function registerTool(program: Command, out: Output): Command {
  const tool = program.command("tool").description("call a tool's functions by hand");
  tool
    .command("call")
    .description("call a function by its address, with its arguments as JSON")
    .argument("<address>", "the function, by address: <plugin>/<tool>.<function>")
    .option("--args <json>", "the arguments, a JSON object", "{}")
    .action(async (address: string, options: { args: string }) => {
      const args = parseArgs(options.args);
      const report = await withRuntime(out, (runtime) =>
        runtime.tools.call(out.options.tenant, address, args),
      );
      if (report.ok) {
        out.result(report, (done) => JSON.stringify(done.result, null, 2));
        return;
      }
      if (out.json) out.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else out.stderr(`oz0: ${report.address}: ${report.error?.code}: ${report.error?.message}\n`);
      throw new CommanderError(1, "oz0.tool.failed", report.error?.message ?? "the call failed");
    });
  return tool;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `--args is not JSON (${error instanceof Error ? error.message : String(error)}); pass an object, such as --args '{"id": 7}'`,
      { data: { issues: [{ path: "", message: "not JSON" }] } },
    );
  }
}

export type { ToolCallReport };
