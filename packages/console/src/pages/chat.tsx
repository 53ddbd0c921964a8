// Chat with an agent: each message a turn of the chat's job, the answer drawn as its card;
// the job's page has the whole trace.
import { useState } from "preact/hooks";
import { type ApiError, api, type Me, ok } from "../api";
import { CardView, cardOf } from "../parts/card";
import { Failure, Panel } from "../parts/ui";
import { Link, tenantPath } from "../router";

type Turn = { who: "you" | "agent"; text: string; card?: unknown };

export function ChatPage(props: { me: Me; address: string }) {
  const { me, address } = props;
  const { tenant } = me;
  const [job, setJob] = useState<string | undefined>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const say = async (text: string) => {
    setBusy(true);
    setTurns((before) => [...before, { who: "you", text }]);
    try {
      const answer =
        job === undefined
          ? await ok(
              api.POST("/v1/t/{tenant}/chats", {
                params: { path: { tenant } },
                body: { agent: address, text },
              }),
            )
          : await ok(
              api.POST("/v1/t/{tenant}/chats/{id}/messages", {
                params: { path: { tenant, id: job } },
                body: { text },
              }),
            );
      const said = answer as unknown as { job: { id: string }; answer: unknown; card?: unknown };
      setJob(said.job.id);
      setTurns((before) => [
        ...before,
        {
          who: "agent",
          text: typeof said.answer === "string" ? said.answer : JSON.stringify(said.answer),
          card: said.card,
        },
      ]);
      setError(undefined);
    } catch (failure) {
      setError(failure as ApiError);
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
        <ol class="chat" aria-live="polite">
          {turns.map((turn, index) => {
            const card = cardOf(turn.card);
            return (
              <li key={index} class={`turn turn-${turn.who}`}>
                <strong>{turn.who === "you" ? "You" : address}</strong>
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
          <div class="field">
            <label for="chat-text">Message</label>
            <textarea id="chat-text" name="text" rows={2} required />
          </div>
          <button type="submit" disabled={busy}>
            Send
          </button>
          {job === undefined ? null : (
            <button
              type="button"
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
        {error === undefined ? null : <Failure error={error} />}
      </Panel>
    </>
  );
}
