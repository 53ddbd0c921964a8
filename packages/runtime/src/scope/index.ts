// The function call a plugin's code runs in, for the platform services its ToolContext gave it
// once per tenant (`ctx.memory`, `ctx.records`): they are built before any call, so the call they
// serve (its job's hooks, its model for the summarizer) is found here, carried by the async
// context the dispatch path runs the function in, never by a key in something shared.
import { AsyncLocalStorage } from "node:async_hooks";
import type { HookName } from "@oz0/sdk";

/** The job's hook bus as a call's services use it (hooks/HookBus). */
export interface ScopeBus {
  has(hook: HookName): boolean;
  fire(
    hook: HookName,
    fields: Record<string, unknown>,
  ): Promise<
    | { readonly ok: true; readonly payload: unknown; readonly changed: boolean }
    | { readonly ok: false; readonly error: Error }
  >;
}

/** Summarizes text with the job's model, governed, metered and recorded as the job's own call. */
export type ScopeSummarizer = (
  text: string,
  options?: { readonly maxTokens?: number; readonly instructions?: string },
) => Promise<string>;

export interface CallScope {
  readonly tenant: string;
  readonly jobId: string;
  readonly callId: string;
  /** The job's hooks; absent when the run has none set up. */
  readonly bus?: ScopeBus | undefined;
  readonly summarize?: ScopeSummarizer | undefined;
}

const current = new AsyncLocalStorage<CallScope>();

/** Runs `work` as part of the call `scope`. */
export function inCallScope<T>(scope: CallScope, work: () => T): T {
  return current.run(scope, work);
}

/** The call the running code serves, or undefined outside any job's call (`oz0 tool call`). */
export function callScope(): CallScope | undefined {
  return current.getStore();
}
