// What one run of a job on the OpenAI Agents SDK keeps between the SDK's model calls and its
// tool calls, which the model adapter (model.ts) and the function tools (run.ts) share.
import type { ModelCall } from "../../models/index.js";
import {
  type RuntimeCallResult,
  type RuntimeModelReply,
  type RuntimeSession,
  RuntimeStop,
} from "../types.js";

/**
 * The SDK's tool for a call of a function the agent was not offered: never offered to the model
 * (the model adapter leaves it out), it carries such a call to oz0, whose answer (NOT_FOUND,
 * naming the functions there are) the model is told, as on oz0's own loop. No function of oz0
 * has this name: theirs are `<tool>__<function>`, with the `__` this one lacks.
 */
export const UNOFFERED = "OZ0_UNOFFERED";

/** What one run keeps between the SDK's model calls and its tool calls. */
export class RunState {
  readonly session: RuntimeSession;
  /** The calls of each reply, by oz0's call id, which is the id the SDK carries them under. */
  readonly calls = new Map<string, ModelCall>();
  /** Each call's result as oz0 recorded it, to tell the model exactly that. */
  readonly results = new Map<string, RuntimeCallResult>();
  /** The last reply, whose text or structured output is the answer when the SDK ends. */
  last: RuntimeModelReply | undefined;
  /** The stop a session call threw inside the SDK, carried out of its run whatever it made of it. */
  stop: RuntimeStop | undefined;
  /** Calls run one at a time, in the order the SDK asks, as oz0's own loop runs them. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(session: RuntimeSession) {
    this.session = session;
  }

  /** Runs `action` on the session, noting a stop it throws. */
  async guard<T>(action: () => Promise<T>): Promise<T> {
    if (this.stop !== undefined) throw this.stop;
    try {
      return await action();
    } catch (error) {
      if (error instanceof RuntimeStop) this.stop = error;
      throw error;
    }
  }

  /** Runs call `callId` after the calls asked for before it. */
  callFunction(callId: string): Promise<RuntimeCallResult> {
    const next = this.#queue.then(() => this.guard(() => this.session.callFunction(callId)));
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
