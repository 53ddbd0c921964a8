// What a person gives a waiting job from outside its run (an answer to oz.ask_user, a chat's
// next message, a chat's end) passes the tenant's hooks before it is written: user_input may
// rewrite or refuse the text, a chat's pre_session_access the write to its session, and an
// answer's post_tool_call the result oz.ask_user returns. Their governance events are written
// with it; a refusal writes them alone, leaves the job waiting, and is thrown to the person.
// post_session_access hears of the write once it is made.
import type { Oz0Error } from "@oz0/sdk";
import type { NewEvent } from "../events/index.js";
import { HookBus, type HookSource, type HookTable } from "../hooks/index.js";
import type { JobRow } from "../store/index.js";

/** The hooks of one person's input to job `row`; `none` when no handler listens on any of them. */
export class PersonInput {
  readonly events: NewEvent[] = [];
  readonly #bus: HookBus;
  readonly #row: JobRow;

  private constructor(table: HookTable, row: JobRow) {
    this.#row = row;
    this.#bus = new HookBus(
      table,
      { tenant: row.tenant, jobId: row.id, agent: `${row.plugin}/${row.name}` },
      (entry) => this.events.push(entry as NewEvent),
    );
  }

  static async of(hooks: HookSource, row: JobRow): Promise<PersonInput | undefined> {
    const table = await hooks.table(row.tenant);
    const listens = PERSON_HOOKS.some((hook) => table.has(hook));
    return listens ? new PersonInput(table, row) : undefined;
  }

  /**
   * A chat's session written: the person's message (`entry`), or `{ end: true }`. Returns the
   * entry to write, or the refusal.
   */
  async sessionWrite(entry: unknown, by: string): Promise<{ ok: true; entry: unknown } | Refused> {
    if (!this.#bus.has("pre_session_access")) return { ok: true, entry };
    const outcome = await this.#bus.fire("pre_session_access", this.#session(entry, by));
    if (!outcome.ok) return { ok: false, error: outcome.error };
    return { ok: true, entry: outcome.payload.kind === "chat" ? outcome.payload.entry : entry };
  }

  /** The session was written: post_session_access. Returns what its handlers recorded. */
  async sessionWritten(entry: unknown, by: string): Promise<readonly NewEvent[]> {
    if (!this.#bus.has("post_session_access")) return [];
    this.events.length = 0;
    await this.#bus.fire("post_session_access", this.#session(entry, by));
    return [...this.events];
  }

  /** A person's text: user_input, which may rewrite or refuse it. */
  async userInput(text: string, by: string): Promise<{ ok: true; text: string } | Refused> {
    if (!this.#bus.has("user_input")) return { ok: true, text };
    const outcome = await this.#bus.fire("user_input", { content: text, attachments: [], senderId: by });
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const content = outcome.payload.content;
    return { ok: true, text: typeof content === "string" ? content : JSON.stringify(content) };
  }

  /**
   * The answer oz.ask_user's call `callId` returns: post_tool_call, which may rewrite it. The
   * payload's result is `{ answer }`, as the model is told.
   */
  async answerResult(callId: string, question: string, answer: string): Promise<string> {
    if (!this.#bus.has("post_tool_call")) return answer;
    const outcome = await this.#bus.fire("post_tool_call", {
      callId,
      address: "oz.ask_user",
      tool: "oz",
      function: "ask_user",
      args: { question },
      result: { answer },
      durationMs: 0,
    });
    if (!outcome.ok || !outcome.changed) return answer;
    const result = outcome.payload.result as { answer?: unknown } | null;
    const changed = result !== null && typeof result === "object" ? result.answer : result;
    return typeof changed === "string" ? changed : JSON.stringify(changed ?? null);
  }

  #session(entry: unknown, by: string) {
    return { session: this.#row.id, kind: "chat" as const, access: "write" as const, entry, by };
  }
}

type Refused = { readonly ok: false; readonly error: Oz0Error };

const PERSON_HOOKS = ["user_input", "pre_session_access", "post_session_access", "post_tool_call"] as const;
