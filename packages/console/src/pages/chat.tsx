// Chat with an agent: each message a turn of the chat's job, its text drawn as the model writes
// it (the chat routes answer as an event stream when asked), then the answer as its card; the
// job's page has the whole trace.
import { useState } from "preact/hooks";
import { ApiError, api, csrfHeaders, type Me, ok } from "../api";
import { CardView, cardOf } from "../parts/card";
import { Field, Panel, Refusal } from "../parts/ui";
import { Link, tenantPath } from "../router";
import { postStream } from "../sse";

type Turn = { who: "you" | "agent"; text: string; card?: unknown; streaming?: boolean };

export function ChatPage(props: { me: Me; address: string }) {
  const { me, address } = props;
  const { tenant } = me;
  const [job, setJob] = useState<string | undefined>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  /** Changes the agent's turn being written, the last one. */
  const writing = (change: (turn: Turn) => Turn) =>
    setTurns((before) => [...before.slice(0, -1), change(before.at(-1)!)]);
  const say = async (text: string) => {
    setBusy(true);
    setError(undefined);
    setTurns((before) => [...before, { who: "you", text }, { who: "agent", text: "", streaming: true }]);
    const base = `/v1/t/${encodeURIComponent(tenant)}/chats`;
    try {
      await postStream(
        job === undefined ? base : `${base}/${encodeURIComponent(job)}/messages`,
        job === undefined ? { agent: address, text } : { text },
        csrfHeaders(),
        (message) => {
          const data = JSON.parse(message.data);
          if (message.event === "delta") writing((turn) => ({ ...turn, text: turn.text + data.text }));
          else if (message.event === "turn" || message.event === "json") {
            const said = data as { job: { id: string }; answer: unknown; card?: unknown };
            setJob(said.job.id);
            writing(() => ({
              who: "agent",
              text: typeof said.answer === "string" ? said.answer : JSON.stringify(said.answer),
              card: said.card,
            }));
          } else if (message.event === "error") throw new ApiError(data.error?.status ?? 500, data);
        },
      );
    } catch (failure) {
      setTurns((before) => (before.at(-1)?.streaming ? before.slice(0, -1) : before));
      setError(failure instanceof ApiError ? failure : new ApiError(0, undefined));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Chat with {address}</h1>
      <Panel
        title="Conversation"
        actions={job === undefined ? null : <Link href={tenantPath(tenant, "jobs", job)}>Its job</Link>}
      >
        <ol class="chat" aria-label="Turns" aria-live="polite">
          {turns.map((turn, index) => {
            const card = cardOf(turn.card);
            return (
              <li key={index} class={`turn turn-${turn.who}`} aria-busy={turn.streaming === true}>
                <strong>{turn.who === "you" ? "You" : address}</strong>
                {turn.streaming === true && turn.text === "" ? <p class="muted">…</p> : null}
                {card === undefined || card.kind === "text" ? <p>{turn.text}</p> : <CardView card={card} />}
              </li>
            );
          })}
        </ol>
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget as HTMLFormElement;
            const text = String(new FormData(form).get("text") ?? "");
            if (text.trim() === "") return;
            form.reset();
            void say(text);
          }}
        >
          <Field id="chat-text" label="Message">
            <textarea id="chat-text" name="text" rows={2} required />
          </Field>
          <button type="submit" disabled={busy}>
            Send
          </button>
          {job === undefined ? null : (
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                await ok(
                  api.POST("/v1/t/{tenant}/chats/{id}/end", { params: { path: { tenant, id: job } } }),
                );
                setJob(undefined);
                setTurns([]);
              }}
            >
              End chat
            </button>
          )}
        </form>
        <Refusal error={error} />
      </Panel>
    </>
  );
}
