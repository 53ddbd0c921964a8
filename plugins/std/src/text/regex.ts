// A model's regular expression is untrusted: a pattern such as (a+)+$ can backtrack for
// longer than the universe on a short text, and JavaScript cannot interrupt a running
// regex. So it runs in a worker thread with a deadline and a memory cap; a worker past its
// deadline is terminated, which stops the regex wherever it is. The deadline runs from the
// moment the worker begins the job, so starting a worker on a busy machine does not count
// against the pattern. Idle workers are kept for reuse and never keep the process alive.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { Oz0Error } from "@oz0/sdk";
import { badArgument, limitExceeded } from "../errors.js";
import type { OutcomeOf, RegexJob, RegexOutcome, RegexReply, WorkerMessage } from "./regex-worker.js";

/** The flags a caller may give; `g` is always added. */
export const REGEX_FLAGS = "imsu";
/** A worker's heap: enough for a 1 MB text and its results, not for a runaway replacement. */
const WORKER_HEAP_MB = 128;
const MAX_IDLE_WORKERS = 2;

// Tests run the TypeScript sources, which Node loads with type stripping; the build runs .js.
const WORKER_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./regex-worker.ts" : "./regex-worker.js",
  import.meta.url,
);

/** A worker and the port its jobs and replies travel on. */
interface RegexWorker {
  readonly thread: Worker;
  readonly port: MessagePort;
}
const idle: RegexWorker[] = [];

/**
 * Checks that `source` compiles with `flags` (in this thread: compiling is linear in the
 * pattern's length) and throws INVALID_INPUT naming the problem when it does not.
 */
export function checkPattern(source: string, flags: string): void {
  const unknown = [...flags].filter((flag) => !REGEX_FLAGS.includes(flag));
  if (unknown.length > 0 || new Set(flags).size !== flags.length) {
    throw badArgument(
      "flags",
      `'${flags}' is not a set of flags: use any of ${[...REGEX_FLAGS].join(", ")}, each once.`,
    );
  }
  try {
    new RegExp(source, `${flags}g`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badArgument(
      "pattern",
      `not a valid regular expression: ${reason}. Patterns use JavaScript syntax.`,
    );
  }
}

/**
 * Runs `job` in a worker; throws LIMIT_EXCEEDED when it runs past `timeoutMs` or out of
 * memory, and rejects with the signal's reason when `signal` aborts first.
 */
export async function runRegex<J extends RegexJob>(
  job: J,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<OutcomeOf<J>> {
  return (await runInWorker(job, timeoutMs, signal)) as OutcomeOf<J>;
}

function runInWorker(
  job: RegexJob,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<RegexOutcome> {
  signal?.throwIfAborted();
  const worker = idle.pop() ?? spawn();
  const { thread, port } = worker;
  return new Promise<RegexOutcome>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void, reusable: boolean): void => {
      clearTimeout(timer);
      port.off("message", onMessage).unref();
      thread.off("error", onError).off("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      if (reusable && idle.length < MAX_IDLE_WORKERS) idle.push(worker);
      else void thread.terminate();
      settle();
    };
    const onReply = (reply: RegexReply) =>
      finish(() => (reply.ok ? resolve(reply.outcome) : reject(failure(reply))), true);
    const onMessage = (message: WorkerMessage) => {
      // The deadline is the pattern's: it runs from the job's start, not from the worker's.
      if ("started" in message) timer = setTimeout(onDeadline, timeoutMs);
      else onReply(message);
    };
    const onDeadline = () => {
      // A reply that came in time may still wait in the port behind a busy thread: it counts.
      const late = receiveMessageOnPort(port)?.message as WorkerMessage | undefined;
      if (late !== undefined && !("started" in late)) onReply(late);
      else finish(() => reject(tooSlow(timeoutMs)), false);
    };
    const onError = (error: Error & { code?: string }) => finish(() => reject(crashed(error)), false);
    const onExit = (code: number) =>
      finish(() => reject(new Oz0Error("INTERNAL", `the regex worker exited with code ${code}.`)), false);
    const onAbort = () => finish(() => reject(signal?.reason), false);
    // The port keeps the process alive while a job runs (before its deadline timer exists too).
    port.on("message", onMessage).ref();
    thread.on("error", onError).on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    port.postMessage(job);
  });
}

function spawn(): RegexWorker {
  const { port1: port, port2 } = new MessageChannel();
  const thread = new Worker(WORKER_URL, {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    workerData: { port: port2 },
    transferList: [port2],
  });
  // An idle worker must not keep the process alive.
  thread.unref();
  port.unref();
  const worker = { thread, port };
  // A worker that fails while idle leaves the pool; without a listener its error would be thrown.
  const leave = () => {
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
  };
  thread.on("error", leave).on("exit", leave);
  return worker;
}

function tooSlow(timeoutMs: number): Oz0Error {
  return limitExceeded(
    `pattern: the regular expression ran longer than ${timeoutMs} ms on this text and was stopped. It probably backtracks catastrophically (nested quantifiers such as (a+)+ or (a|a)*); make the pattern more specific, or search a shorter text.`,
    { limit: "regex time", max: timeoutMs, unit: "ms" },
  );
}

function failure(reply: Extract<RegexReply, { ok: false }>): Oz0Error {
  if (reply.tooLarge) return tooMuchMemory();
  return new Oz0Error("INTERNAL", `the regular expression failed: ${reply.message}`);
}

function crashed(error: Error & { code?: string }): Oz0Error {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY") return tooMuchMemory();
  return new Oz0Error("INTERNAL", `the regex worker failed: ${error.message}`, { cause: error });
}

function tooMuchMemory(): Oz0Error {
  return limitExceeded(
    `the regular expression's result needs more than ${WORKER_HEAP_MB} MB; match a narrower pattern, or work on a shorter text.`,
    { limit: "regex memory", max: WORKER_HEAP_MB, unit: "MB" },
  );
}
