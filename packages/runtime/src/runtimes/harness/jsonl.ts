// A run on a JSON-lines harness: one process per run of a job, one JSON object per line each
// way (docs/runtimes.md#harnesses lists the messages). Such a harness uses only oz.ask_user:
// a question is the job's next step, so the job waits for the person and, when it is taken up
// again, the restarted harness's same question is answered from the history.
import { createInterface } from "node:readline";
import type { HarnessSetting, RuntimeSession } from "../types.js";
import { CANCEL_GRACE_MS, harnessFailed, howItEnded, type StartedHarness, startHarness } from "./process.js";
import { HarnessSteps } from "./steps.js";
import { prepareWorkspace, releaseWorkspace } from "./workspace.js";

/** oz.ask_user's model-visible name. */
const ASK_USER = "oz__ask_user";

export interface JsonlRun {
  cancel(): void;
}

export async function runJsonl(
  session: RuntimeSession,
  setting: HarnessSetting,
  onStart: (run: JsonlRun) => void,
): Promise<void> {
  const name = setting.spec.name;
  const skills = await prepareWorkspace(setting, session.job);
  let stopWith: (reason: unknown) => void = () => undefined;
  let done: () => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    stopWith = reject;
    done = resolve;
  });
  const steps = new HarnessSteps(session, (reason) => stopWith(reason));
  const asks = session.functions.some((fn) => fn.name === ASK_USER);
  let harness: StartedHarness | undefined;
  let ending = false;
  const send = (message: Record<string, unknown>) => {
    if (harness?.child.stdin.writable === true) harness.child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  onStart({
    cancel() {
      send({ type: "cancel" });
      setTimeout(() => harness?.kill(), CANCEL_GRACE_MS).unref();
    },
  });
  try {
    harness = startHarness(setting);
    const started = harness;
    // A harness that exits after it said done or fail has ended; one that exits before has broken off.
    void started.exited.then((exit) => {
      if (!ending) stopWith(harnessFailed(name, `${howItEnded(started, exit)}, before it said done`));
    });
    send({
      type: "start",
      job: session.job,
      instructions: setting.instructions,
      input: setting.input,
      workspace: setting.workspace,
      skills: skills ?? null,
    });
    const reader = createInterface({ input: harness.child.stdout });
    reader.on("line", (line) => {
      if (line.trim() === "") return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        stopWith(harnessFailed(name, `it wrote a line that is not JSON: ${line.slice(0, 200)}`));
        return;
      }
      handle(message);
    });
    const handle = (message: Record<string, unknown>) => {
      switch (message.type) {
        case "text":
          steps.text(typeof message.text === "string" ? message.text : "");
          return;
        case "usage":
          steps.usage({
            input: numberOr(message.input),
            output: numberOr(message.output),
            ...(message.cost_usd === undefined ? {} : { costUsd: numberOr(message.cost_usd) }),
          });
          steps.model(typeof message.model === "string" ? message.model : undefined);
          return;
        case "event":
          steps.note(typeof message.name === "string" ? message.name : "event", message.data ?? null);
          return;
        case "ask": {
          const id = message.id;
          if (!asks) {
            send({
              type: "error",
              id,
              code: "NOT_GRANTED",
              message: "this agent does not list oz.ask_user in its tools",
            });
            return;
          }
          void steps.call(ASK_USER, { question: String(message.question ?? "") }).then((outcome) => {
            if (outcome.ok) send({ type: "answer", id, answer: answerText(outcome.result) });
            else send({ type: "error", id, code: outcome.error.code, message: outcome.error.message });
          });
          return;
        }
        case "done":
          ending = true;
          void steps.finish(typeof message.text === "string" ? message.text : undefined).then(() => done());
          return;
        case "fail":
          ending = true;
          void steps
            .fail({
              kind: typeof message.kind === "string" ? message.kind : "harness_failed",
              message: typeof message.message === "string" ? message.message : "the harness failed",
            })
            .then(() => done());
          return;
        default:
          stopWith(harnessFailed(name, `it wrote a message of unknown type ${JSON.stringify(message.type)}`));
      }
    };
    await ended;
  } finally {
    harness?.kill();
    await releaseWorkspace(setting, session.job);
  }
}

function numberOr(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** An answer as text: oz.ask_user's result is the person's answer. */
function answerText(result: unknown): string {
  if (typeof result === "string") return result;
  const answer = (result as { answer?: unknown } | null)?.answer;
  return typeof answer === "string" ? answer : JSON.stringify(result);
}
