// `oz0 run <plugin>/<agent|flow> [input] [--input-file F] [--no-wait]`: starts a job of an
// agent or a flow and, unless --no-wait, runs it here until it ends (its child jobs too),
// drawing its steps and the model's text as it streams on stderr, and its answer, as its card,
// on stdout. The exit code is 0 only when the job succeeded. Ctrl-C lets the job go, queued
// to go on, and says how to take it up again or cancel it. When a worker (`oz0 worker`) is live
// on the store, the job is left to it: --no-wait returns at once, and without it this process
// follows the worker's run, or runs the job itself should no worker take it soon. With no live
// worker, --no-wait leaves the job queued for the next worker or `oz0 job resume`.
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput, readOptionFile } from "../errors.js";
import type { Output } from "../output.js";
import { finishRun, withProgress } from "./job.js";

/** Where `--input-file -` reads the input; tests put text of their own here. */
export const stdinInput = {
  read: async (): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

interface RunOptions {
  inputFile?: string;
  wait: boolean;
}

export function registerRun(program: Command, out: Output): Command {
  return program
    .command("run")
    .description("start a job of an agent or a flow and run it to its answer")
    .argument("<address>", "the agent or flow, by address: <plugin>/<agent> or <plugin>/<flow>")
    .argument("[input]", "the job's input: text, or JSON for an agent with an input_schema")
    .option(
      "--input-file <file>",
      "read the input from a file (- for stdin): text, or JSON for an agent with an input_schema",
    )
    .option("--no-wait", "start the job and return: a running worker (oz0 worker) takes it")
    .action(async (address: string, input: string | undefined, options: RunOptions) => {
      const text = await readInput(input, options.inputFile);
      const { runResult } = await import("@oz0/runtime");
      const { view, card, workers } = await withRuntime(out, async ({ services, caller }) => {
        const started = await services.jobs.start(caller, { agent: address, input: text });
        const workers = await services.jobs.liveWorkers(caller);
        if (!options.wait) return { view: started, card: undefined, workers };
        if (!out.json) out.stderr(`job ${started.id} · ${started.agent}\n`);
        const ran = await withProgress(out, (listeners) => services.jobs.run(caller, started.id, listeners));
        return { ...ran, workers };
      });
      if (options.wait) {
        await finishRun(out, view, { card });
        return;
      }
      out.result(runResult(view), (job) =>
        workers > 0
          ? `job ${job.id} is queued; a running worker takes it (oz0 job get ${job.id})`
          : `job ${job.id} is queued; no worker is running: oz0 worker, or oz0 job resume ${job.id}, runs it`,
      );
    });
}

/** The job's input: the argument, or the file --input-file names (stdin for `-`), not both. */
async function readInput(input: string | undefined, file: string | undefined): Promise<string> {
  if (file === undefined) return input ?? "";
  if (input !== undefined) {
    throw await invalidInput(
      "give the input as the argument or with --input-file, not both",
      "input",
      "given twice",
    );
  }
  if (file === "-") return stdinInput.read();
  return readOptionFile(file, {
    said: "--input-file",
    issue: "input-file",
    hint: "give a file to read the input from, or - for stdin",
  });
}
