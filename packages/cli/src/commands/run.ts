// `oz0 run <plugin>/<agent|flow> [input] [--input-file F] [--no-wait]`: starts a job of an
// agent or a flow and, unless --no-wait, runs it here until it ends (its child jobs too),
// drawing its steps and the model's text as it streams on stderr, and its answer, as its card,
// on stdout. The exit code is 0 only when the job succeeded. Ctrl-C lets the job go, queued
// to go on, and says how to take it up again or cancel it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { JobView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { invalidInput } from "../errors.js";
import type { Output } from "../output.js";
import { actor, finishRun, withCard, withProgress } from "./job.js";

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
    .option("--no-wait", "start the job and return; it runs in the background")
    .action(async (address: string, input: string | undefined, options: RunOptions) => {
      const text = await readInput(input, options.inputFile);
      const tenant = out.options.tenant;
      const { view, card } = await withRuntime(out, async (runtime) => {
        const started = await runtime.jobs.start({ tenant, agent: address, input: text, by: actor() });
        if (!options.wait) return { view: started, card: undefined };
        if (!out.json) out.stderr(`job ${started.id} · ${started.agent}\n`);
        return withCard(
          runtime,
          await withProgress(out, (listeners) =>
            runtime.jobs.run(started.id, { tenant, follow: true, ...listeners }),
          ),
        );
      });
      if (options.wait) {
        await finishRun(out, view, { card });
        return;
      }
      const background = startInBackground(view, out);
      out.result(
        { id: view.id, agent: view.agent, status: view.status, output: view.output, failure: view.failure },
        (job) =>
          background
            ? `job ${job.id} started; it runs in the background (oz0 job get ${job.id})`
            : `job ${job.id} is queued; oz0 job resume ${job.id} runs it`,
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
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES"
            ? "oz0 may not read it"
            : (error as Error).message;
    throw await invalidInput(
      `--input-file ${file}: ${why}; give a file to read the input from, or - for stdin`,
      "input-file",
      "cannot be read",
    );
  }
}

/**
 * Runs the job in a detached `oz0 job resume` process when this is the installed command; from
 * the TypeScript sources (tests) the job stays queued for whichever process runs it.
 */
function startInBackground(view: JobView, out: Output): boolean {
  const main = new URL("../main.js", import.meta.url);
  if (!import.meta.url.endsWith(".js") || !existsSync(main)) return false;
  const args = [fileURLToPath(main), "job", "resume", view.id, "--tenant", view.tenant];
  if (out.options.home !== undefined) args.push("--home", out.options.home);
  const child = spawn(process.execPath, args, { detached: true, stdio: "ignore", env: process.env });
  child.on("error", () => {});
  child.unref();
  return true;
}
