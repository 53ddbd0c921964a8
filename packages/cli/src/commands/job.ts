// `oz0 job get|trace|search|cancel|resume|answer|retry`: a tenant's jobs. Each command calls the
// runtime's job service as the command's caller; `trace` draws the job's history as a
// timeline, and `--json` prints the events as they are stored, each with its `seq` and `kind`.
import type { Card, JobEvent, JobStatus, JobView } from "@oz0/runtime";
import { type Command, CommanderError, Option } from "commander";
import { withRuntime } from "../context.js";
import { drawCard } from "../draw/index.js";
import { allOf, numberOption } from "../options.js";
import type { Output } from "../output.js";
import { readTime } from "../times.js";

interface SearchOptions {
  agent?: string;
  status?: JobStatus;
  tag?: string;
  since?: string;
  until?: string;
  limit: number;
}

const STATUSES = allOf<JobStatus>()([
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
  "dead",
]);

export function registerJob(program: Command, out: Output): Command {
  const job = program
    .command("job")
    .description("look at, search, cancel, resume and answer a tenant's jobs");

  job
    .command("get")
    .description("show a job: its agent, status, input and output or failure")
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const shown = await withRuntime(out, async ({ services, caller }) => {
        const view = await services.jobs.get(caller, id);
        const events = await services.jobs.events(caller, id);
        return { ...view, runs: runsOf(events) };
      });
      out.result(shown, drawJob);
    });

  job
    .command("retry")
    .description(
      "queue a dead-lettered job again: it goes on from its history, its attempts counted from none",
    )
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const view = await withRuntime(out, ({ services, caller }) => services.jobs.retry(caller, id));
      out.result(view, (job) => `job ${job.id} queued again; a node takes it up from its history`);
    });

  job
    .command("trace")
    .description("draw a job's history as a timeline of its steps, durations, tokens and results")
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const { view, events } = await withRuntime(out, async ({ services, caller }) => ({
        view: await services.jobs.get(caller, id),
        events: await services.jobs.events(caller, id),
      }));
      out.result(events, (list) => drawTrace(view, list));
    });

  job
    .command("card")
    .description("draw a succeeded job's answer as its card (a table, key-values, a diff or text)")
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const card = await withRuntime(out, ({ services, caller }) => services.jobs.answerCard(caller, id));
      out.result(card, drawCard);
    });

  job
    .command("search")
    .description("list the tenant's jobs, newest first")
    .option("--agent <address>", "only jobs of this agent, by address (<plugin>/<agent>)")
    .addOption(new Option("--status <status>", "only jobs in this status").choices(STATUSES))
    .option("--tag <tag>", "only jobs of agents with this tag")
    .option(
      "--since <when>",
      "only jobs started since a time (2026-12-01T09:00:00Z) or a while back (90m, 12h, 7d)",
    )
    .option("--until <when>", "only jobs started before a time, or before a while back")
    .option(
      "--limit <n>",
      "at most this many",
      numberOption({ whole: true, min: 1, what: "how many jobs to list", example: "20" }),
      50,
    )
    .action(async (options: SearchOptions) => {
      const since = options.since === undefined ? undefined : await readTime(options.since, "--since");
      const until = options.until === undefined ? undefined : await readTime(options.until, "--until");
      const jobs = await withRuntime(out, ({ services, caller }) =>
        services.jobs.search(caller, {
          agent: options.agent,
          status: options.status,
          tag: options.tag,
          since,
          until,
          limit: options.limit,
          hint: () => "--agent takes the address of the agent or flow whose jobs to list",
        }),
      );
      out.result(jobs, drawJobList);
    });

  job
    .command("cancel")
    .description("cancel a job: a queued or waiting one ends now, a running one at its next step")
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const { view, by } = await withRuntime(out, async ({ services, caller }) => ({
        view: await services.jobs.cancel(caller, id),
        by: caller.actor,
      }));
      out.result(view, (job) =>
        job.status === "cancelled"
          ? `job ${job.id} cancelled by ${job.cancelRequestedBy ?? by}`
          : `job ${job.id}: cancel requested by ${job.cancelRequestedBy}; it stops at its next step`,
      );
    });

  job
    .command("resume")
    .description(
      "take a job up from its history: a queued one, or one whose process died (once its lease runs out)",
    )
    .argument("<id>", "the job's ID")
    .action(async (id: string) => {
      const { view, card } = await withRuntime(out, ({ services, caller }) =>
        withProgress(out, (listeners) => services.jobs.resume(caller, id, listeners)),
      );
      await finishRun(out, view, { card });
    });

  job
    .command("answer")
    .description("answer the question a job asked (oz.ask_user), then run it on")
    .argument("<id>", "the job's ID")
    .argument("<text>", "the answer")
    .option("--no-wait", "answer and return; the job is queued for a worker")
    .action(async (id: string, text: string, options: { wait: boolean }) => {
      const { view, card } = await withRuntime(out, async ({ services, caller }) => {
        const answered = await services.jobs.answer(caller, id, text);
        if (!options.wait) return { view: answered, card: undefined };
        return withProgress(out, (listeners) => services.jobs.runOn(caller, id, listeners));
      });
      if (!options.wait) out.result(view, (job) => `job ${job.id} answered; it is queued to go on`);
      else await finishRun(out, view, { card });
    });

  return job;
}

interface ProgressListeners {
  onEvent?: (entry: Pick<JobEvent, "kind" | "data">) => void;
  onText?: (delta: string) => void;
  onLeaseWait?: (wait: { owner: string | null; remainingMs: number }) => void;
  /** Aborts at Ctrl-C: the run lets the job go, queued to go on, and returns. */
  signal?: AbortSignal;
}

/** Ctrl-C while a command runs a job; tests send their own. */
export const interrupts = {
  /** Calls `handler` at the first SIGINT; a second one ends the process at once. Returns the undo. */
  on: (handler: () => void): (() => void) => {
    let times = 0;
    const listener = () => {
      times += 1;
      if (times > 1) process.exit(EXIT_CODES.interrupted);
      handler();
    };
    process.on("SIGINT", listener);
    return () => process.off("SIGINT", listener);
  },
};

/** How long a run may go without a step before stderr says it is still going. */
const QUIET_MS = 5_000;

/**
 * Runs `work` with listeners that draw the job's steps on stderr as they happen, and say it is
 * still running when a step takes long (nothing with --json).
 */
export async function withProgress<T>(
  out: Output,
  work: (listeners: ProgressListeners) => Promise<T>,
): Promise<T> {
  const interrupted = new AbortController();
  const undo = interrupts.on(() => {
    if (!out.json) out.stderr("\n  interrupted: letting the job go…\n");
    interrupted.abort();
  });
  try {
    if (out.json) return await work({ signal: interrupted.signal });
    return await drawProgress(out, interrupted.signal, work);
  } finally {
    undo();
  }
}

async function drawProgress<T>(
  out: Output,
  signal: AbortSignal,
  work: (listeners: ProgressListeners) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let last = started;
  const listeners = progress(out, () => {
    last = Date.now();
  });
  const ticker = setInterval(() => {
    if (Date.now() - last < QUIET_MS) return;
    last = Date.now();
    out.stderr(`  … still running (${Math.round((last - started) / 1000)} s)\n`);
  }, 1000);
  ticker.unref();
  try {
    return await work({ ...listeners, signal });
  } finally {
    clearInterval(ticker);
  }
}

/**
 * Listeners that draw a run's steps on stderr as they happen (not with --json): the model's
 * text as it streams, indented, then each step's line.
 */
export function progress(out: Output, onLine: () => void = () => {}): ProgressListeners {
  if (out.json) return {};
  let lastWait = 0;
  let streaming = false;
  return {
    onText: (delta) => {
      if (delta === "") return;
      out.stderr(`${streaming ? "" : "  "}${delta.replaceAll("\n", "\n  ")}`);
      streaming = true;
      onLine();
    },
    onEvent: (entry) => {
      const line = stepLine(entry);
      if (line === undefined) return;
      out.stderr(`${streaming ? "\n" : ""}  ${line}\n`);
      streaming = false;
      onLine();
    },
    onLeaseWait: (wait) => {
      const now = Date.now();
      if (now - lastWait < 1000) return;
      lastWait = now;
      // A lease's owner is `<node>#<claim>`; people know the node.
      const node = wait.owner?.split("#")[0] ?? "another worker";
      out.stderr(`  waiting for the lease of ${node} to run out (${Math.ceil(wait.remainingMs / 1000)} s)\n`);
      onLine();
    },
  };
}

/** The exit code of a run that did not succeed (docs/cli.md, "Exit codes"). */
export const EXIT_CODES = { failed: 1, waiting: 2, declaredFailure: 3, interrupted: 130 } as const;

/**
 * Prints a run's end: the answer on stdout, drawn as its card (the job with --json), a failure
 * or a question on stderr. The exit code is 0 only when the job succeeded: 2 when it waits for
 * a person, 3 when it failed with a kind its agent declares, 130 when Ctrl-C let it go (a run
 * here returns a queued job only then), else 1.
 */
export async function finishRun(
  out: Output,
  view: JobView,
  options: { readonly oneLine?: boolean; readonly card?: Card | undefined } = {},
): Promise<void> {
  const { answerText, runResult } = await import("@oz0/runtime");
  if (out.json) out.writeJson(runResult(view), { pretty: options.oneLine !== true });
  else if (view.status === "succeeded") {
    out.stdout(`${options.card === undefined ? answerText(view.output) : drawCard(options.card)}\n`);
  }
  if (view.status === "succeeded") return;
  // Through a server, a run this command stopped following (Ctrl-C) goes on on the server.
  const onServer =
    out.options.server !== undefined && (view.status === "queued" || view.status === "running");
  const line = onServer ? goesOnOnServer(view) : endLine(view);
  if (!out.json) out.stderr(`oz0: ${line}\n`);
  throw new CommanderError(
    onServer ? EXIT_CODES.interrupted : await exitCode(view),
    `oz0.job.${view.status}`,
    line,
  );
}

function goesOnOnServer(view: JobView): string {
  return [
    `job ${view.id} goes on on the server: it is not cancelled, and the server's worker runs it`,
    `  oz0 job resume ${view.id}   follow its steps again, to its end`,
    `  oz0 job trace ${view.id}    see what it has done so far`,
    `  oz0 job cancel ${view.id}   cancel it`,
  ].join("\n");
}

async function exitCode(view: JobView): Promise<number> {
  if (view.status === "waiting") return EXIT_CODES.waiting;
  if (view.status === "queued") return EXIT_CODES.interrupted;
  const { PLATFORM_FAILURE_KINDS } = await import("@oz0/sdk");
  const kind = view.failure?.kind;
  const declared =
    view.status === "failed" &&
    kind !== undefined &&
    !(PLATFORM_FAILURE_KINDS as readonly string[]).includes(kind);
  return declared ? EXIT_CODES.declaredFailure : EXIT_CODES.failed;
}

/** A failure's flags as words: what a caller may do about it. */
function failureFlags(failure: NonNullable<JobView["failure"]>): string {
  const flags = [
    failure.retryable === true ? "retryable" : "",
    failure.partial === true ? "partly done" : "",
    failure.person === true ? "a person must act" : "",
  ].filter((word) => word !== "");
  return flags.length === 0 ? "" : ` (${flags.join(", ")})`;
}

/** The fields of a form an MCP server asked a person to fill. */
function formFields(form: { readonly schema: Readonly<Record<string, unknown>> }): string {
  return Object.keys((form.schema.properties ?? {}) as object).join(", ") || "none";
}

function endLine(view: JobView): string {
  if (view.status === "waiting") {
    const waiting = view.waitingFor;
    if (waiting?.kind === "answer" && waiting.elicitation !== undefined) {
      return `job ${view.id} asks, for ${waiting.elicitation.tool}: ${waiting.question} — answer with oz0 job answer ${view.id} JSON (fields: ${formFields(waiting.elicitation)})`;
    }
    if (waiting?.kind === "answer") {
      return `job ${view.id} asks: ${waiting.question} — answer with oz0 job answer ${view.id} TEXT`;
    }
    if (waiting?.kind === "child") return `job ${view.id} waits for its child job ${waiting.job}`;
    if (waiting?.kind === "approval") {
      return `job ${view.id} waits for a person to approve call ${waiting.callId} — oz0 approval approve|deny ${waiting.approval}`;
    }
    return `job ${view.id} waits for the next message`;
  }
  if (view.status === "queued") {
    return [
      `job ${view.id} goes on: it is not cancelled, and it is queued to go on from where it stopped`,
      `  oz0 job resume ${view.id}   take it up again here, following its steps to its end`,
      `  oz0 job trace ${view.id}    see what it has done so far`,
      `  oz0 job cancel ${view.id}   cancel it`,
    ].join("\n");
  }
  if (view.status === "running") return `job ${view.id} is running`;
  const failure = view.failure;
  return `job ${view.id} ${view.status}${failure === null ? "" : `: ${failure.kind}: ${failure.message}${failureFlags(failure)}`}`;
}

/** One claim of a job: its attempt and the node that ran it. */
export interface JobRunShown {
  readonly attempt: number;
  readonly node: string;
  readonly at: number;
}

function runsOf(events: readonly JobEvent[]): JobRunShown[] {
  return events.flatMap((entry) =>
    entry.kind === "job_claimed"
      ? [{ attempt: entry.data.attempt, node: entry.data.node, at: entry.at }]
      : [],
  );
}

export function drawJob(view: JobView & { readonly runs?: readonly JobRunShown[] }): string {
  const lines = [
    `job ${view.id}`,
    `  agent    ${view.agent}`,
    `  status   ${view.status}${view.mode === "chat" ? " (chat)" : ""}`,
  ];
  lines.push(`  input    ${short(view.input, 200)}`);
  if (view.status === "succeeded") lines.push(`  output   ${short(view.output, 400)}`);
  if (view.failure !== null) lines.push(`  failure  ${view.failure.kind}: ${view.failure.message}`);
  if (view.waitingFor !== null) lines.push(`  waiting  ${endLine(view)}`);
  if (view.cancelRequestedBy !== null) lines.push(`  cancel   requested by ${view.cancelRequestedBy}`);
  if (view.parent !== null) lines.push(`  parent   ${view.parent}`);
  lines.push(
    `  created  ${new Date(view.createdAt).toISOString()}`,
    `  updated  ${new Date(view.updatedAt).toISOString()}`,
  );
  lines.push(`  attempts ${view.attempts}`);
  lines.push(`  queue    ${view.queue}`);
  if (view.unserved !== null) lines.push(`  unserved ${view.unserved}`);
  for (const run of view.runs ?? []) {
    lines.push(`  run      attempt ${run.attempt} on node ${run.node} at ${new Date(run.at).toISOString()}`);
  }
  return lines.join("\n");
}

function drawJobList(jobs: readonly JobView[]): string {
  if (jobs.length === 0) return "no jobs";
  const rows = jobs.map((job) => [job.id, job.agent, job.status, new Date(job.createdAt).toISOString()]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * The trace: a header with the job's totals, then one line per event with its seq, its time
 * from the job's start, and what it recorded.
 */
export function drawTrace(view: JobView, events: readonly JobEvent[]): string {
  const start = events[0]?.at ?? view.createdAt;
  const end = events.at(-1)?.at ?? start;
  let models = 0;
  let tokens = 0;
  let cost = 0;
  let calls = 0;
  for (const entry of events) {
    if (entry.kind === "model_call") {
      models += 1;
      tokens += entry.data.usage.input + entry.data.usage.output;
      cost += entry.data.cost_usd ?? 0;
    }
    if (entry.kind === "tool_result") calls += 1;
  }
  const header =
    `job ${view.id} · ${view.agent} · ${view.status} · ${plural(models, "model call")}, ${plural(calls, "tool call")}, ` +
    `${tokens} tokens${usd(cost)} · ${end - start} ms`;
  const lines = [header, ""];
  for (const entry of events) {
    const at = `+${entry.at - start}ms`;
    lines.push(`${String(entry.seq).padStart(4)} ${at.padStart(9)}  ${traceLine(entry)}`);
  }
  return lines.join("\n");
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** One event as the trace draws it. */
function traceLine(entry: Pick<JobEvent, "kind" | "data">): string {
  return stepLine(entry) ?? contextLine(entry);
}

function contextLine(entry: Pick<JobEvent, "kind" | "data">): string {
  const e = entry as JobEvent;
  switch (e.kind) {
    case "job_started":
      return `started      ${e.data.agent}${e.data.mode === "chat" ? " (chat)" : ""} · input ${short(e.data.input, 80)}${e.data.by === undefined ? "" : ` · by ${e.data.by}`}${e.data.runtime === undefined ? "" : ` · runtime ${e.data.runtime}`}`;
    case "job_claimed":
      return `claimed      attempt ${e.data.attempt} by ${e.data.node}`;
    case "context_part_contributed":
      return `context      ${e.data.source} ${e.data.section_id} · ${e.data.token_estimate} tokens · ${e.data.retained ? "kept" : `left out (${e.data.eviction_reason ?? "?"})`}`;
    case "context_assembled":
      return `context      ${e.data.tokens} tokens of start-up context · functions: ${e.data.functions.join(", ") || "none"}`;
    case "job_waiting": {
      const { for: waiting } = e.data;
      // A form's schema is the server's to show in full (oz0 job get --json); its fields name it here.
      if (waiting.kind === "answer" && waiting.elicitation !== undefined) {
        return `waiting      for a person to fill ${waiting.elicitation.tool}'s form for call ${waiting.callId} (fields: ${formFields(waiting.elicitation)})`;
      }
      return `waiting      ${JSON.stringify(waiting)}`;
    }
    case "governance_checked":
      return `checked      ${e.data.hook} ${e.data.outcome} · ${e.data.checks_passed} passed`;
    case "governance_denied":
      return `denied       ${e.data.hook} by ${e.data.plugin} (${e.data.contract_id}): ${e.data.reason} ${short(e.data.details, 80)}`;
    case "harness_update":
      return `harness      ${e.data.runtime} ${e.data.update} ${short(e.data.data, 100)}`;
    case "hook_error":
      return `hook error   ${e.data.hook} in ${e.data.plugin}/${e.data.handler}${e.data.required ? " (required)" : ""}: ${short(e.data.error, 120, false)}`;
    default:
      return `${e.kind.padEnd(12)} ${short(e.data, 120)}`;
  }
}

/** The lines a run's progress shows too: steps, results, waits and ends. */
function stepLine(entry: Pick<JobEvent, "kind" | "data">): string | undefined {
  const e = entry as JobEvent;
  switch (e.kind) {
    case "model_call": {
      const what =
        e.data.calls.length > 0
          ? `→ ${e.data.calls.map((call) => `${call.name} ${short(call.args, 60)}`).join(", ")}`
          : e.data.output !== undefined
            ? `→ output ${short(e.data.output, 80)}`
            : // A remote agent's step is its task, whose messages and states follow as their own lines.
              e.data.text === undefined && e.data.runtime?.startsWith("remote:") === true
              ? "→ task"
              : `→ "${short(e.data.text ?? "", 80, false)}"`;
      // A step another runtime's loop took says so; oz0's own are the usual case.
      const on = e.data.runtime === undefined || e.data.runtime === "oz0" ? "" : ` · on ${e.data.runtime}`;
      return `model        step ${e.data.step}${on} · ${e.data.model} · ${e.data.ms} ms · ${e.data.usage.input}+${e.data.usage.output} tokens${usd(e.data.cost_usd ?? 0)} ${what}`;
    }
    case "tool_call":
      return `tool call    ${e.data.callId} ${e.data.address || e.data.name}${ranWith(e.data)} · key ${e.data.key}${decidedBy(e.data.decided)}`;
    case "tool_call_retried":
      return `tool retry   ${e.data.callId} · attempt ${e.data.attempt}, same key`;
    case "tool_result":
      return e.data.ok
        ? `tool result  ${e.data.callId} ok · ${e.data.ms} ms → ${short(e.data.result, 100)}`
        : `tool result  ${e.data.callId} error · ${e.data.error?.code}: ${short(e.data.error?.message ?? "", 120, false)}`;
    case "remote_task":
      return `remote task  ${e.data.callId} ${e.data.task} ${e.data.state}${e.data.text === undefined ? "" : `: ${short(e.data.text, 80, false)}`}`;
    case "function_left_out":
      return `left out     ${e.data.address}: ${e.data.reason}`;
    case "model_warning":
      return `warning      ${e.data.message}`;
    case "output_rejected":
      return `rejected     step ${e.data.step} output: ${e.data.problems}`;
    case "answer_received":
      return `answer       ${e.data.callId} by ${e.data.by}: ${short(e.data.answer, 80, false)}`;
    case "mcp_elicitation":
      return `form         ${e.data.callId} ${e.data.tool} asks a person: ${short(e.data.message, 80, false)}`;
    case "elicitation_answered":
      return `form filled  ${e.data.callId} by ${e.data.by} → ${short(e.data.content, 80)}`;
    case "approval_requested":
      return `approval     ${e.data.callId} ${e.data.address} ${short(e.data.args, 60)} asks a person (${e.data.approval}, rule ask ${e.data.rule})`;
    case "approval_decided":
      return `approval     ${e.data.callId} ${e.data.decision} by ${e.data.by}${e.data.reason === undefined ? "" : `: ${short(e.data.reason, 80, false)}`}`;
    case "user_message":
      return `message      by ${e.data.by}: ${short(e.data.text, 80, false)}`;
    case "child_job_started":
      return `child        ${e.data.job} (${e.data.agent}) started`;
    case "child_job_finished":
      return `child        ${e.data.job} ${e.data.status}`;
    case "job_succeeded":
      return `succeeded    → ${short(e.data.output, 120)}`;
    case "job_failed":
      return `failed       ${e.data.kind}: ${e.data.message}`;
    case "job_cancelled":
      return `cancelled    by ${e.data.by}`;
    case "job_dead":
      return `dead         after ${e.data.attempts} attempts: ${e.data.message}`;
    default:
      return undefined;
  }
}

/** The arguments a call ran with, and the hook handlers that changed the model's. */
function ranWith(data: {
  readonly args?: unknown;
  readonly changedBy?: readonly { readonly plugin: string; readonly handler: string }[];
}): string {
  if (data.args === undefined) return "";
  const by = data.changedBy ?? [];
  const changed =
    by.length === 0 ? "" : ` (changed by ${by.map((one) => `${one.plugin}/${one.handler}`).join(", ")})`;
  return ` ${short(data.args, 80)}${changed}`;
}

/** What decided a call a person was asked about: their approval, or a rule or switch set since. */
function decidedBy(decided: { readonly by: string; readonly approval: string } | undefined): string {
  if (decided === undefined) return "";
  return decided.by === "approval"
    ? ` · decided by approval ${decided.approval}`
    : ` · decided by ${decided.by}, over approval ${decided.approval}`;
}

/** A cost as the trace shows it (` · $0.0016`); nothing for a free or unpriced call. */
function usd(cost: number): string {
  return cost > 0 ? ` · $${Number(cost.toPrecision(3))}` : "";
}

function short(value: unknown, max: number, quote = true): string {
  const text = typeof value === "string" && !quote ? value : (JSON.stringify(value) ?? "null");
  const flat = text.replaceAll("\n", " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
