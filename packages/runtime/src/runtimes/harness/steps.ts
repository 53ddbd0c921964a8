// A harness session's side of the job: everything the harness does that the job records goes
// through one queue, in the order it happened. A call of an agent's tool (ACP's MCP server, a
// JSON-lines question) or a permission request is the job's next step: recorded with the text
// the harness streamed since its last step and the usage it reported, then run on the job's
// governed dispatch path, so policy, approvals, kill switches and limits take effect inside the
// harness's loop. On a resumed run the harness starts over, and a step the history holds with
// the same calls is answered from it: a recorded call is never run again.
import { type RuntimeCallResult, type RuntimeSession, RuntimeStop } from "../types.js";

export class HarnessSteps {
  readonly #session: RuntimeSession;
  readonly #stop: (reason: unknown) => void;
  #queue: Promise<unknown> = Promise.resolve();
  #text = "";
  #costUsd = 0;
  /** The harness reports what its calls cost: a step it reported nothing for cost nothing. */
  #reportsCost = false;
  #usage = { input: 0, output: 0 };
  /** The model the harness says it runs on now, when it says. */
  #model: string | undefined;
  #stopped = false;

  /** `stop` is told once when the job stopped inside a step (it waits or ended) or a step failed. */
  constructor(session: RuntimeSession, stop: (reason: unknown) => void) {
    this.#session = session;
    this.#stop = stop;
  }

  /** Text the harness's model wrote: streamed live, and kept for the next step's record. */
  text(delta: string): void {
    if (this.#stopped || delta === "") return;
    this.#text += delta;
    this.#session.streamText(delta);
  }

  /** Usage the harness reports for its own model calls, counted on its next step. */
  usage(report: { readonly input?: number; readonly output?: number; readonly costUsd?: number }): void {
    this.#usage.input += report.input ?? 0;
    this.#usage.output += report.output ?? 0;
    this.#costUsd += report.costUsd ?? 0;
    if (report.costUsd !== undefined) this.#reportsCost = true;
  }

  /** The model the harness says its next steps run on (its own name for it); undefined leaves the last one. */
  model(id: string | undefined): void {
    if (id !== undefined && id !== "") this.#model = id;
  }

  /** Runs function `name` as the job's next step; a stop inside it ends the session (the promise then never settles). */
  call(name: string, args: unknown): Promise<RuntimeCallResult> {
    return this.#enqueue(async () => {
      // What the harness wrote on its session before this call is read first, so its text goes with this step.
      await new Promise((done) => setImmediate(done));
      const reply = await this.#session.recordStep(this.#step([{ name, args }]));
      return this.#session.callFunction(reply.calls[0]!.id);
    });
  }

  /** Writes an update of the session into the trace. */
  note(update: string, data: unknown): void {
    void this.#enqueue(() => this.#session.note({ update, data })).catch(() => undefined);
  }

  /** The harness ended its turn: the last step holds its text, and the job ends with it as the answer. */
  finish(answer?: string): Promise<void> {
    return this.#enqueue(async () => {
      const text = answer ?? this.#text;
      const step = this.#step([]);
      await this.#session.recordStep({ ...step, text });
      await this.#session.finish({ text });
      // An answer the output schema refuses would go back to a model; a harness's turn is over,
      // so the job fails (its output_rejected event says why). After an end, fail throws RuntimeStop.
      try {
        await this.#session.fail({
          kind: "invalid_output",
          message: `the harness's answer did not match the agent's output_schema: ${text.slice(0, 200)}`,
        });
      } catch (error) {
        if (!(error instanceof RuntimeStop)) throw error;
      }
    });
  }

  fail(failure: { readonly kind: string; readonly message: string }): Promise<void> {
    return this.#enqueue(async () => {
      await this.#session.recordStep(this.#step([]));
      await this.#session.fail(failure);
    });
  }

  #step(calls: readonly { readonly name: string; readonly args: unknown }[]) {
    const step = {
      // A harness that names no model is recorded on itself.
      model: this.#model ?? this.#session.runtime,
      text: this.#text,
      calls,
      usage: this.#usage,
      ...(this.#reportsCost ? { costUsd: this.#costUsd } : {}),
    };
    this.#text = "";
    this.#usage = { input: 0, output: 0 };
    this.#costUsd = 0;
    return step;
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(async () => {
      if (this.#stopped) return new Promise<T>(() => undefined);
      try {
        return await work();
      } catch (error) {
        this.#stopped = true;
        this.#stop(error);
        // The job stopped (or the step failed): the harness gets no answer, and is stopped.
        return new Promise<T>(() => undefined);
      }
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Whether the job stopped inside a step. */
  get stopped(): boolean {
    return this.#stopped;
  }
}
