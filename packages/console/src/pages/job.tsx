// A job's page: its timeline, filled in live from its server-sent events: each step with its
// duration, tokens and cost, model text streaming in, tool calls with their arguments and
// results, governance events, context attribution, child jobs, the waits a person answers in
// place (a held call, a question), cancel, and the answer drawn as its card.
import { memo } from "preact/compat";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ApiError, api, can, type Me, ok, type Schemas } from "../api";
import { useLoad } from "../load";
import { CardView, cardOf } from "../parts/card";
import { Failure, Fold, Json, Panel, Refusal, Show, Status, When } from "../parts/ui";
import { Link, partPath, tenantPath } from "../router";
import { follow } from "../sse";

export interface JobEvent {
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly data: Record<string, unknown>;
}

type JobView = Schemas["Job"];

/**
 * How many of a job's newest events its page opens with: a long job's history before them is
 * read only when asked for, so the page of a job of any length opens as fast.
 */
const OPEN_TAIL = 300;

const TERMINAL = new Set(["succeeded", "failed", "cancelled", "dead"]);
/** The status each event leaves the job in, for the events that change it. */
const STATUS_AFTER: Record<string, string> = {
  job_claimed: "running",
  job_waiting: "waiting",
  approval_decided: "running",
  answer_received: "running",
  user_message: "running",
  job_succeeded: "succeeded",
  job_failed: "failed",
  job_cancelled: "cancelled",
  job_dead: "dead",
};

/** The job's status as its events tell it, once they have told any. */
function statusOf(events: readonly JobEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const status = STATUS_AFTER[events[index]!.kind];
    if (status !== undefined) return status;
  }
  return undefined;
}

export function JobPage(props: { me: Me; id: string }) {
  const { me, id } = props;
  const { tenant } = me;
  const job = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/jobs/{id}", { params: { path: { tenant, id } } })),
    [tenant, id],
  );
  const [events, setEvents] = useState<JobEvent[]>([]);
  const [deltas, setDeltas] = useState<Record<number, string>>({});
  const [streamError, setStreamError] = useState<Error | undefined>();
  const [live, setLive] = useState(true);
  const [endedJob, setEndedJob] = useState<JobView | undefined>();
  useEffect(() => {
    const stop = new AbortController();
    const pending: JobEvent[] = [];
    const pendingText: Record<number, string> = {};
    let ended: JobView | undefined;
    // Events arrive in bursts (a long job's history at once): they are drawn once the burst
    // pauses, or every quarter second while it lasts, not once each.
    const flush = () => {
      clearTimeout(quiet);
      clearTimeout(longest);
      quiet = undefined;
      longest = undefined;
      if (pending.length > 0) {
        const batch = pending.splice(0);
        setEvents((before) => [...before, ...batch]);
      }
      const steps = Object.keys(pendingText);
      if (steps.length > 0) {
        setDeltas((before) => {
          const next = { ...before };
          for (const step of steps)
            next[Number(step)] = (next[Number(step)] ?? "") + pendingText[Number(step)];
          return next;
        });
        for (const step of steps) delete pendingText[Number(step)];
      }
      if (ended !== undefined) {
        setEndedJob(ended);
        ended = undefined;
      }
    };
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let longest: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(quiet);
      quiet = setTimeout(flush, 20);
      longest ??= setTimeout(flush, 250);
    };
    setEvents([]);
    setDeltas({});
    setEndedJob(undefined);
    setLive(true);
    follow(
      `/v1/t/${encodeURIComponent(tenant)}/jobs/${encodeURIComponent(id)}/events?tail=${OPEN_TAIL}`,
      (message) => {
        if (message.event === "end") {
          // The job as it ended, failure and all: the page need not read it again.
          ended = (JSON.parse(message.data) as { job: JobView }).job;
          setLive(false);
        } else if (message.event === "delta") {
          const delta = JSON.parse(message.data) as { step: number; text: string };
          pendingText[delta.step] = (pendingText[delta.step] ?? "") + delta.text;
        } else {
          const event = JSON.parse(message.data) as JobEvent;
          pending.push(event);
        }
        schedule();
      },
      stop.signal,
    ).then(
      () => setLive(false),
      (error: Error) => {
        setStreamError(error);
        setLive(false);
      },
    );
    return () => {
      stop.abort();
      clearTimeout(quiet);
      clearTimeout(longest);
    };
  }, [tenant, id]);

  // A long job's page opens on its newest events: the ones before come when asked for.
  const loadEarlier = async () => {
    const page = await ok(api.GET("/v1/t/{tenant}/jobs/{id}/events", { params: { path: { tenant, id } } }));
    setEvents((before) => {
      const first = before[0]?.seq ?? Number.POSITIVE_INFINITY;
      const earlier = (page as unknown as { events: JobEvent[] }).events;
      return [...earlier.filter((event) => event.seq < first), ...before];
    });
  };
  if (job.error?.status === 404) {
    return (
      <>
        <h1>Job {id}</h1>
        <Failure error={job.error} />
      </>
    );
  }
  const status = statusOf(events) ?? job.data?.status;
  return (
    <>
      <h1>Job {id}</h1>
      <Panel
        title="Job"
        actions={
          status !== undefined && !TERMINAL.has(status) && can(me, "runner") ? (
            <Cancel me={me} id={id} onDone={job.reload} />
          ) : null
        }
      >
        <Show loaded={endedJob === undefined ? job : { ...job, data: endedJob, error: undefined }}>
          {(data) => (
            <dl class="fields">
              <div>
                <dt>Status</dt>
                <dd>
                  <Status status={status ?? data.status} />{" "}
                  {live && !TERMINAL.has(status ?? data.status) ? <span class="muted">(live)</span> : null}
                </dd>
              </div>
              <div>
                <dt>Agent</dt>
                <dd>
                  <Link href={partPath(tenant, "agents", data.agent)}>{data.agent}</Link>
                </dd>
              </div>
              <div>
                <dt>Started</dt>
                <dd>
                  <When at={data.createdAt} />
                </dd>
              </div>
              {data.parent === null ? null : (
                <div>
                  <dt>Parent</dt>
                  <dd>
                    <Link href={tenantPath(tenant, "jobs", data.parent)}>{data.parent}</Link>
                  </dd>
                </div>
              )}
              <div>
                <dt>Queue</dt>
                <dd>{data.queue}</dd>
              </div>
              {data.unserved === null || data.unserved === undefined ? null : (
                <div role="status">
                  <dt>Not served</dt>
                  <dd>{data.unserved}</dd>
                </div>
              )}
              {data.failure === null ? null : (
                <div>
                  <dt>Failure</dt>
                  <dd>
                    <strong>{data.failure.kind}</strong>: {data.failure.message}
                  </dd>
                </div>
              )}
            </dl>
          )}
        </Show>
      </Panel>
      <Panel title="Timeline">
        {streamError === undefined ? null : <Failure error={streamError} />}
        <Timeline
          me={me}
          jobId={id}
          events={events}
          deltas={deltas}
          status={status}
          busy={endedJob === undefined}
          onChange={job.reload}
          onLoadEarlier={loadEarlier}
        />
      </Panel>
    </>
  );
}

function Cancel(props: { me: Me; id: string; onDone: () => void }) {
  const [error, setError] = useState<ApiError | undefined>();
  const { tenant } = props.me;
  return (
    <>
      <button
        type="button"
        class="danger"
        onClick={async () => {
          try {
            await ok(
              api.POST("/v1/t/{tenant}/jobs/{id}/cancel", { params: { path: { tenant, id: props.id } } }),
            );
            props.onDone();
          } catch (failure) {
            setError(failure as ApiError);
          }
        }}
      >
        Cancel job
      </button>
      {error === undefined ? null : <Failure error={error} />}
    </>
  );
}

const GOVERNANCE = new Set(["governance_checked", "governance_denied", "hook_error"]);

/** The rows before the fold: the job's start, its claim and its context. */
const HEAD = 3;
/** The newest rows drawn when a job opens; a long job's rows between are folded. */
const TAIL = 150;
/** How many more folded rows each "show earlier" draws. */
const MORE = 500;

/**
 * The events as the timeline shows them: a call with its result, the context parts together.
 * A long job's page draws its first rows and its newest ones, and folds those between into one
 * row that says what they hold and draws them on demand: what the browser lays out stays the
 * same size whatever the job's length, so a 1,000-step job opens as fast as a short one.
 */
export function Timeline(props: {
  me: Me;
  jobId: string;
  events: readonly JobEvent[];
  deltas: Record<number, string>;
  status: string | undefined;
  /** Whether events may still arrive: the job runs, or the ended job's history is still coming. */
  busy?: boolean;
  onChange: () => void;
  /** Reads the events before the first one here, which the page opened without. */
  onLoadEarlier?: () => Promise<void>;
}) {
  const { me, events, status } = props;
  const view = useMemo(() => {
    const results = new Map<string, JobEvent>();
    const decided = new Set<string>();
    const answered = new Set<string>();
    const context: JobEvent[] = [];
    const rows: JobEvent[] = [];
    let steps = 0;
    for (const event of events) {
      if (event.kind === "tool_result") results.set(String(event.data.callId), event);
      else if (event.kind === "approval_decided") decided.add(String(event.data.approval));
      else if (event.kind === "answer_received") answered.add(String(event.data.callId));
      else if (event.kind === "model_call") steps = Math.max(steps, Number(event.data.step));
      if (event.kind === "context_part_contributed") {
        if (context.length === 0) rows.push(event);
        context.push(event);
      } else if (event.kind !== "tool_result") rows.push(event);
    }
    return { results, decided, answered, context, rows, steps };
  }, [events]);
  const [tail, setTail] = useState(TAIL);
  const open = status !== undefined && !TERMINAL.has(status);
  const streaming = Object.entries(props.deltas).filter(([step]) => Number(step) > view.steps);
  const { rows } = view;
  // Events the page opened without (a long job's oldest): its head is among them, not drawn.
  const missing = Math.max(0, (events[0]?.seq ?? 1) - 1);
  const head = missing > 0 ? 0 : HEAD;
  const foldEnd = Math.max(head, rows.length - tail);
  const folded = foldEnd > head ? rows.slice(head, foldEnd) : [];
  const drawn = folded.length === 0 ? rows : [...rows.slice(0, head), ...rows.slice(foldEnd)];
  const row = (event: JobEvent) =>
    event.kind === "context_part_contributed" ? (
      <ContextParts key={event.seq} parts={view.context} />
    ) : (
      <EventRow
        key={event.seq}
        me={me}
        jobId={props.jobId}
        event={event}
        result={event.kind === "tool_call" ? view.results.get(String(event.data.callId)) : undefined}
        settled={
          event.kind === "approval_requested"
            ? view.decided.has(String(event.data.approval))
            : event.kind === "job_waiting"
              ? view.answered.has(String((event.data.for as { callId?: string }).callId))
              : false
        }
        open={open}
        onChange={props.onChange}
      />
    );
  return (
    <ol class="timeline" aria-label="Job events" aria-busy={props.busy}>
      {drawn.slice(0, Math.min(head, drawn.length)).map(row)}
      {folded.length === 0 && missing === 0 ? null : (
        <Folded
          events={folded}
          missing={missing}
          onMore={() => setTail((before) => before + MORE)}
          onLoad={props.onLoadEarlier}
        />
      )}
      {drawn.slice(head).map(row)}
      {streaming.map(([step, text]) => (
        <li key={`delta-${step}`} class="event event-delta" aria-live="polite">
          <p class="event-head">
            <strong>Step {step}</strong> <span class="muted">the model is answering…</span>
          </p>
          <p class="model-text">{text}</p>
        </li>
      ))}
    </ol>
  );
}

/**
 * The folded rows of a long job: the steps and calls they hold, and a button to draw more; and
 * how many earlier events the page opened without, with a button to read them.
 */
function Folded(props: {
  events: readonly JobEvent[];
  missing: number;
  onMore: () => void;
  onLoad: (() => Promise<void>) | undefined;
}) {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  let first: number | undefined;
  let last: number | undefined;
  let calls = 0;
  for (const event of props.events) {
    if (event.kind === "model_call") {
      const step = Number(event.data.step);
      first = Math.min(first ?? step, step);
      last = Math.max(last ?? step, step);
    } else if (event.kind === "tool_call") calls += 1;
  }
  const count = props.events.length;
  const more = Math.min(MORE, count);
  const number = (value: number) => value.toLocaleString("en-US");
  return (
    <li
      class="event event-folded"
      data-kind="folded"
      data-events={count}
      data-tool-calls={calls}
      data-missing={props.missing}
    >
      {props.missing === 0 ? null : (
        <p class="event-head">
          <strong>
            {number(props.missing)} earlier {props.missing === 1 ? "event" : "events"} not read yet
          </strong>{" "}
          <span class="muted">the page opened on the job's newest</span>
        </p>
      )}
      {count === 0 ? null : (
        <p class="event-head">
          <strong>
            {number(count)} {props.missing === 0 ? "earlier " : ""}
            {count === 1 ? "event" : "events"} folded
          </strong>{" "}
          <span class="muted">
            {first === undefined ? "" : first === last ? `step ${first} · ` : `steps ${first}–${last} · `}
            {number(calls)} tool {calls === 1 ? "call" : "calls"}
          </span>
        </p>
      )}
      <div class="actions">
        {props.missing === 0 || props.onLoad === undefined ? null : (
          <button
            type="button"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await props.onLoad?.();
                setError(undefined);
              } catch (failure) {
                setError(failure as ApiError);
              } finally {
                setBusy(false);
              }
            }}
          >
            Read the earlier events
          </button>
        )}
        {count === 0 ? null : (
          <button type="button" onClick={props.onMore}>
            Show {more === count ? "all" : number(more)} earlier
          </button>
        )}
      </div>
      <Refusal error={error} />
    </li>
  );
}

interface RowProps {
  readonly me: Me;
  readonly jobId: string;
  readonly event: JobEvent;
  /** A tool call's result, once it came. */
  readonly result: JobEvent | undefined;
  /** A held call decided, or a question answered. */
  readonly settled: boolean;
  /** Whether the job has not ended, so its waits can still be answered. */
  readonly open: boolean;
  readonly onChange: () => void;
}

/** One event of the timeline, drawn again only when what it shows changes. */
const EventRow = memo(function EventRow(props: RowProps) {
  const { event } = props;
  return (
    <li
      class={`event event-${event.kind}${GOVERNANCE.has(event.kind) ? " governance" : ""}`}
      data-kind={event.kind}
    >
      <EventView {...props} />
    </li>
  );
});

function EventView(props: RowProps) {
  const { me, event } = props;
  const { tenant } = me;
  const data = event.data;
  const head = (title: preact.ComponentChildren, detail?: preact.ComponentChildren) => (
    <p class="event-head">
      <strong>{title}</strong> {detail === undefined ? null : <span class="muted">{detail}</span>}
    </p>
  );
  switch (event.kind) {
    case "job_started":
      return (
        <>
          {head("Started", `${data.by === undefined ? "" : `by ${String(data.by)} · `}${String(data.agent)}`)}
          <Json value={data.input} label="input" />
        </>
      );
    case "job_claimed":
      return head("Claimed", `attempt ${String(data.attempt)} on ${String(data.node)}`);
    case "context_assembled":
      return head(
        "Context assembled",
        `${String(data.tokens)} tokens · ${(data.functions as string[]).length} functions offered`,
      );
    case "model_call": {
      const usage = data.usage as { input: number; output: number; cached?: number };
      const calls = (data.calls as { name?: string; function?: string }[] | undefined) ?? [];
      return (
        <>
          {head(
            `Step ${String(data.step)}`,
            `${String(data.model)} · ${Number(data.ms).toFixed(1)} ms · ${usage.input}+${usage.output} tokens${data.cost_usd === undefined ? "" : ` · $${Number(data.cost_usd).toFixed(4)}`}`,
          )}
          {typeof data.text === "string" && data.text !== "" ? <p class="model-text">{data.text}</p> : null}
          {calls.length > 0 ? (
            <p class="muted">calls {calls.map((call) => call.name ?? call.function).join(", ")}</p>
          ) : null}
          {data.output === undefined ? null : <Json value={data.output} label="answer" />}
        </>
      );
    }
    case "tool_call": {
      const result = props.result;
      const answer = result?.data;
      return (
        <>
          {head(
            <>
              Tool call <code>{String(data.address)}</code>
            </>,
            result === undefined
              ? "running…"
              : `${answer?.ok ? "ok" : "failed"} · ${Number(answer?.ms).toFixed(1)} ms`,
          )}
          <Fold summary="Arguments">{() => <Json value={data.args} label="arguments" />}</Fold>
          {result === undefined ? null : (
            <Fold summary={answer?.ok ? "Result" : "Error"} open={answer?.ok !== true}>
              {() => (
                <Json
                  value={answer?.ok ? answer.result : answer?.error}
                  label={answer?.ok ? "result" : "error"}
                />
              )}
            </Fold>
          )}
        </>
      );
    }
    case "governance_checked":
    case "governance_denied":
    case "hook_error":
      return (
        <>
          {head(event.kind.replace("_", " "), summaryOf(data))}
          <Fold summary="Details">{() => <Json value={data} />}</Fold>
        </>
      );
    case "approval_requested": {
      const pending = !props.settled;
      return (
        <>
          {head(
            <>
              Held for approval: <code>{String(data.address)}</code>
            </>,
            `rule ${String(data.rule)}`,
          )}
          <Json value={data.args} label="arguments it will run with" />
          {pending && props.open && can(me, "approver") ? (
            <Decide me={me} approval={String(data.approval)} onDone={props.onChange} />
          ) : null}
        </>
      );
    }
    case "approval_decided":
      return head(
        `Call ${String(data.decision)}`,
        `by ${String(data.by)}${data.reason === undefined ? "" : `: ${String(data.reason)}`}`,
      );
    case "job_waiting": {
      const wait = data.for as { kind: string; question?: string; callId?: string; job?: string };
      if (wait.kind === "answer") {
        const unanswered = !props.settled;
        return (
          <>
            {head("Question", wait.question)}
            {unanswered && props.open && can(me, "runner") ? (
              <Answer me={me} jobId={props.jobId} seq={event.seq} onDone={props.onChange} />
            ) : null}
          </>
        );
      }
      if (wait.kind === "child")
        return head(
          "Waiting for its child job",
          <Link href={tenantPath(tenant, "jobs", String(wait.job))}>{String(wait.job)}</Link>,
        );
      return head("Waiting", wait.kind === "approval" ? "for a person's approval" : "for the next message");
    }
    case "answer_received":
      return head("Answered", `by ${String(data.by)}: ${String(data.answer)}`);
    case "child_job_started":
      return head(
        "Child job",
        <>
          <Link href={tenantPath(tenant, "jobs", String(data.job))}>{String(data.job)}</Link> of{" "}
          {String(data.agent)}
        </>,
      );
    case "child_job_finished":
      return head("Child job finished", `${String(data.job)} · ${String(data.status)}`);
    case "job_succeeded": {
      const card = cardOf(data.card);
      return (
        <>
          {head("Succeeded")}
          <section class="card" aria-label="Answer">
            {card === undefined ? <Json value={data.output} label="answer" /> : <CardView card={card} />}
          </section>
        </>
      );
    }
    case "job_failed":
    case "job_dead":
      return head(
        event.kind === "job_dead" ? "Dead" : "Failed",
        `${String(data.kind)}: ${String(data.message)}`,
      );
    case "job_cancelled":
      return head("Cancelled", `by ${String(data.by)}`);
    case "user_message":
      return head(`Message from ${String(data.by)}`, String(data.text));
    default:
      return <>{head(event.kind.replaceAll("_", " "), summaryOf(data))}</>;
  }
}

function summaryOf(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ["hook", "handler", "point", "decision", "reason", "error", "message", "name", "tool"]) {
    if (typeof data[key] === "string") parts.push(`${key} ${String(data[key])}`);
  }
  return parts.join(" · ");
}

function ContextParts(props: { parts: readonly JobEvent[] }) {
  const retained = props.parts.filter((part) => part.data.retained === true);
  const total = retained.reduce((sum, part) => sum + Number(part.data.token_estimate ?? 0), 0);
  return (
    <li class="event event-context" data-kind="context_part_contributed">
      <details>
        <summary>
          <strong>Context</strong>{" "}
          <span class="muted">
            {retained.length} of {props.parts.length} parts kept · about {total} tokens
          </span>
        </summary>
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Source</th>
                <th scope="col">Mechanism</th>
                <th scope="col">Tokens</th>
                <th scope="col">Kept</th>
              </tr>
            </thead>
            <tbody>
              {props.parts.map((part) => (
                <tr key={part.seq}>
                  <td>{String(part.data.part_id)}</td>
                  <td>{String(part.data.source)}</td>
                  <td>{String(part.data.mechanism)}</td>
                  <td>{String(part.data.token_estimate)}</td>
                  <td>
                    {part.data.retained === true
                      ? "kept"
                      : `evicted: ${String(part.data.eviction_reason ?? "")}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </li>
  );
}

/** Approve or deny a held call, with a reason: where it is, on the job's page or in the inbox. */
export function Decide(props: { me: Me; approval: string; onDone: () => void }) {
  const { tenant } = props.me;
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLInputElement>(null);
  const decide = async (decision: "approve" | "deny") => {
    setBusy(true);
    const reason = reasonRef.current?.value ?? "";
    try {
      const path = { tenant, id: props.approval };
      const body = reason === "" ? {} : { reason };
      if (decision === "approve")
        await ok(api.POST("/v1/t/{tenant}/approvals/{id}/approve", { params: { path }, body }));
      else await ok(api.POST("/v1/t/{tenant}/approvals/{id}/deny", { params: { path }, body }));
      props.onDone();
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const reasonId = `reason-${props.approval}`;
  return (
    <div class="decide">
      <div class="field">
        <label for={reasonId}>Reason</label>
        <input id={reasonId} ref={reasonRef} name="reason" />
      </div>
      <button type="button" disabled={busy} onClick={() => decide("approve")}>
        Approve
      </button>
      <button type="button" class="danger" disabled={busy} onClick={() => decide("deny")}>
        Deny
      </button>
      {error === undefined ? null : <Failure error={error} />}
    </div>
  );
}

function Answer(props: { me: Me; jobId: string; seq: number; onDone: () => void }) {
  const { tenant } = props.me;
  const [error, setError] = useState<ApiError | undefined>();
  return (
    <form
      class="decide"
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = String(new FormData(event.currentTarget as HTMLFormElement).get("answer") ?? "");
        try {
          await ok(
            api.POST("/v1/t/{tenant}/jobs/{id}/answer", {
              params: { path: { tenant, id: props.jobId } },
              body: { answer },
            }),
          );
          props.onDone();
        } catch (failure) {
          setError(failure as ApiError);
        }
      }}
    >
      <div class="field">
        <label for={`answer-${props.seq}`}>Your answer</label>
        <input id={`answer-${props.seq}`} name="answer" required />
      </div>
      <button type="submit">Answer</button>
      {error === undefined ? null : <Failure error={error} />}
    </form>
  );
}
