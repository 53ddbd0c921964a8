// `oz0 chat <plugin>/<agent>`: a conversation in the terminal. Each message is a step of one
// job of mode chat, whose history keeps the conversation; answers stream as they come, and a
// structured answer is drawn as its card. An empty line, /exit or the end of input ends the
// chat, and the job succeeds with its last answer; a job that fails or waits for anything but
// the next message ends it too. The address is checked before the first prompt.
import { createInterface } from "node:readline";
import type { JobView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import { drawCard } from "../draw/index.js";
import type { Output } from "../output.js";
import { finishRun, progress } from "./job.js";

/** The lines a person types, a prompt before each, and the end of reading them. */
export interface ChatLines extends AsyncIterable<string> {
  prompt(): void;
  close(): void;
}

/** Where chat reads the person's messages; tests put lines of their own here. */
export const chatInput = {
  /** stdin, with line editing and history in a terminal; the prompt goes to stderr. */
  open: (out: Output): ChatLines => {
    const terminal = process.stdin.isTTY === true;
    const lines = createInterface({
      input: process.stdin,
      ...(terminal ? { output: process.stderr, terminal: true, historySize: 200 } : { terminal: false }),
    });
    lines.setPrompt("you> ");
    // Ctrl-C at the prompt ends the chat as the end of input does.
    lines.on("SIGINT", () => lines.close());
    return {
      [Symbol.asyncIterator]: () => lines[Symbol.asyncIterator](),
      prompt: () => {
        if (out.json) return;
        if (terminal) lines.prompt();
        else out.stderr("you> ");
      },
      close: () => lines.close(),
    };
  },
};

const END = new Set(["", "/exit", "/quit"]);

export function registerChat(program: Command, out: Output): Command {
  return program
    .command("chat")
    .description("talk with an agent: each message is a step of one job, and its history is kept")
    .argument("<address>", "the agent, by address: <plugin>/<agent>")
    .action(async (address: string) => {
      const view = await withRuntime(out, async ({ services, caller }) => {
        await services.chat.open(caller, address, {
          hint: (found) =>
            found.kind === "flow"
              ? `oz0 chat talks with an agent; oz0 run ${found.address} runs the flow`
              : "oz0 chat talks with an agent (oz0 catalog lists the tenant's agents)",
        });
        const lines = chatInput.open(out);
        try {
          let job: JobView | undefined;
          if (!out.json) out.stderr(`chat with ${address}; an empty line or /exit ends it\n`);
          lines.prompt();
          for await (const line of lines) {
            const text = line.trim();
            if (END.has(text)) break;
            const turn = await services.chat.say(
              caller,
              { agent: address, job: job?.id, text },
              {
                onText: out.json ? undefined : (delta) => out.stdout(delta),
                ...(out.json ? {} : { onLeaseWait: progress(out).onLeaseWait }),
              },
            );
            job = turn.view;
            // A job that waits for anything but the next message (an approval, an answer) ends the chat here.
            if (job.status !== "waiting" || job.waitingFor?.kind !== "chat") return job;
            if (out.json) out.writeJson({ id: job.id, answer: turn.answer });
            // A text answer streamed as it came; a structured one is drawn once it is whole.
            else out.stdout(turn.card === undefined ? "\n" : `${drawCard(turn.card)}\n`);
            lines.prompt();
          }
          if (job === undefined) return undefined;
          return services.chat.end(caller, job.id);
        } finally {
          lines.close();
        }
      });
      if (view === undefined) return;
      if (view.status === "succeeded" && !out.json) {
        out.stderr(`chat ended; the conversation is job ${view.id} (oz0 job trace ${view.id})\n`);
        return;
      }
      // With --json every line chat prints is one JSON object: each answer, then the job.
      await finishRun(out, view, { oneLine: true });
    });
}
