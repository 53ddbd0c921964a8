// `oz0 chat <plugin>/<agent>`: a conversation in the terminal. Each message is a step of one
// job of mode chat, whose history keeps the conversation; answers stream as they come. An
// empty line, /exit or the end of input ends the chat, and the job succeeds with its last answer.
import { createInterface } from "node:readline";
import type { JobView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";
import { actor, finishRun, progress } from "./job.js";

/** Where chat reads the person's messages; tests put lines of their own here. */
export const chatInput = {
  lines: (): AsyncIterable<string> => createInterface({ input: process.stdin, terminal: false }),
};

const END = new Set(["", "/exit", "/quit"]);

export function registerChat(program: Command, out: Output): Command {
  return program
    .command("chat")
    .description("talk with an agent: each message is a step of one job, and its history is kept")
    .argument("<address>", "the agent, by address: <plugin>/<agent>")
    .action(async (address: string) => {
      const tenant = out.options.tenant;
      const by = actor();
      const view = await withRuntime(out, async (runtime) => {
        let job: JobView | undefined;
        const prompt = () => {
          if (!out.json) out.stderr("you> ");
        };
        if (!out.json) out.stderr(`chat with ${address}; an empty line or /exit ends it\n`);
        prompt();
        for await (const line of chatInput.lines()) {
          const text = line.trim();
          if (END.has(text)) break;
          if (job === undefined) {
            job = await runtime.jobs.start({ tenant, agent: address, input: text, mode: "chat", by });
          } else {
            await runtime.jobs.say(job.id, text, by, { tenant });
          }
          job = await runtime.jobs.run(job.id, {
            tenant,
            follow: true,
            onText: out.json ? undefined : (delta) => out.stdout(delta),
            ...(out.json ? {} : { onLeaseWait: progress(out).onLeaseWait }),
          });
          // A job that waits for anything but the next message (an approval, an answer) ends the chat here.
          if (job.status !== "waiting" || job.waitingFor?.kind !== "chat") return job;
          const answer = (await runtime.jobs.events(job.id, { tenant })).findLast(
            (entry) => entry.kind === "model_call",
          );
          const said = answer?.kind === "model_call" ? (answer.data.text ?? answer.data.output) : undefined;
          if (out.json) out.stdout(`${JSON.stringify({ id: job.id, answer: said ?? null })}\n`);
          else out.stdout("\n");
          prompt();
        }
        if (job === undefined) return undefined;
        return runtime.jobs.endChat(job.id, { tenant });
      });
      if (view === undefined) return;
      if (view.status === "succeeded" && !out.json) {
        out.stderr(`chat ended; the conversation is job ${view.id} (oz0 job trace ${view.id})\n`);
        return;
      }
      // With --json every line chat prints is one JSON object: each answer, then the job.
      finishRun(out, view, { oneLine: true });
    });
}
