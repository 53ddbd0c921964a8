// The jobs API: StartJob, get, search, cancel, answer and events (followed as SSE). Each route parses, calls one
// runtime.services.jobs method with the caller, and shapes the answer.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Runtime } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { invalidRequest } from "../errors.js";
import { followEvents, lastEventId, wantsEventStream } from "../events.js";
import {
  AnswerBody,
  CardSchema,
  EventListSchema,
  EventsQuery,
  JobListSchema,
  JobParams,
  JobSchema,
  SearchQuery,
  StartJobBody,
  TenantParams,
  WorkersSchema,
} from "../schemas.js";
import { errors, json, permit, security } from "./shared.js";

const startJob = createRoute({
  operationId: "startJob",
  method: "post",
  path: "/v1/t/{tenant}/jobs",
  summary: "Start a job of an agent or flow",
  description:
    "The agent or flow is named by address and checked against its owner; its input is checked against its input schema before the job exists (422 INVALID_INPUT, each problem at its place in data.issues). The job is queued for a worker.",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.start")] as const,
  request: {
    params: TenantParams,
    body: { content: { "application/json": { schema: StartJobBody } }, required: true },
  },
  responses: {
    201: json(JobSchema, "The job, queued (or the earlier job of the same idempotency key)."),
    ...errors,
  },
});

const getJob = createRoute({
  operationId: "getJob",
  method: "get",
  path: "/v1/t/{tenant}/jobs/{id}",
  summary: "Get a job",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.get")] as const,
  request: { params: JobParams },
  responses: { 200: json(JobSchema, "The job."), ...errors },
});

const searchJobs = createRoute({
  operationId: "searchJobs",
  method: "get",
  path: "/v1/t/{tenant}/jobs",
  summary: "Search the tenant's jobs, newest first",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.search")] as const,
  request: { params: TenantParams, query: SearchQuery },
  responses: { 200: json(JobListSchema, "The jobs the caller may see."), ...errors },
});

const cancelJob = createRoute({
  operationId: "cancelJob",
  method: "post",
  path: "/v1/t/{tenant}/jobs/{id}/cancel",
  summary: "Cancel a job",
  description: "A queued or waiting job ends at once; a running one at its next step.",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.cancel")] as const,
  request: { params: JobParams },
  responses: { 200: json(JobSchema, "The job after the cancel."), ...errors },
});

const answerJob = createRoute({
  operationId: "answerJob",
  method: "post",
  path: "/v1/t/{tenant}/jobs/{id}/answer",
  summary: "Answer the question a job asked (oz.ask_user)",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.answer")] as const,
  request: {
    params: JobParams,
    body: { content: { "application/json": { schema: AnswerBody } }, required: true },
  },
  responses: { 200: json(JobSchema, "The job, queued to go on."), ...errors },
});

const retryJob = createRoute({
  operationId: "retryJob",
  method: "post",
  path: "/v1/t/{tenant}/jobs/{id}/retry",
  summary: "Queue a dead-lettered job again",
  description:
    "It goes on from its history, its attempts counted from none; a job that is not dead is refused.",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.retry")] as const,
  request: { params: JobParams },
  responses: { 200: json(JobSchema, "The job, queued."), ...errors },
});

const jobEvents = createRoute({
  operationId: "jobEvents",
  method: "get",
  path: "/v1/t/{tenant}/jobs/{id}/events",
  summary: "A job's events",
  description:
    'As JSON, the events so far. With Accept: text/event-stream, server-sent events that follow the job until it ends: each event\'s id is its seq, so a client that reconnects with Last-Event-ID gets exactly the events after it; a last event named `end` carries the job. While a model step runs, its text streams as `event: delta` frames with `data: {"step": <the model_call\'s step>, "text": "<chunk>"}` and no id: they are not stored, come before their step\'s model_call event (whose text is the whole of them) and never after it; a stream that starts or resumes mid-step gets the rest of that step\'s text.',
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.eventPage")] as const,
  request: {
    params: JobParams,
    query: EventsQuery,
    headers: z.object({
      "last-event-id": z
        .string()
        .optional()
        .openapi({ description: "Resume a stream after the event with this id (seq)." }),
    }),
  },
  responses: {
    200: {
      content: {
        "application/json": { schema: EventListSchema },
        "text/event-stream": { schema: z.string().openapi({ description: "Server-sent events." }) },
      },
      description: "The job and its events.",
    },
    ...errors,
  },
});

const jobCard = createRoute({
  operationId: "jobCard",
  method: "get",
  path: "/v1/t/{tenant}/jobs/{id}/card",
  summary: "A succeeded job's answer as its card",
  description:
    "The card the answer is drawn as (a table, key-values, a diff, or text); a job that has not succeeded is refused with JOB_STATE_CONFLICT.",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.answerCard")] as const,
  request: { params: JobParams },
  responses: { 200: json(CardSchema, "The card."), ...errors },
});

const resumeJob = createRoute({
  operationId: "resumeJob",
  method: "post",
  path: "/v1/t/{tenant}/jobs/{id}/resume",
  summary: "Take a job up from its history on the server's worker",
  description:
    "A queued job, or one whose worker died (once its lease runs out), is left to this server's worker, which takes it up from its history; follow it by its events. A job that ended or waits for someone is refused with JOB_STATE_CONFLICT.",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.resume")] as const,
  request: { params: JobParams },
  responses: { 200: json(JobSchema, "The job, left to the worker."), ...errors },
});

const liveWorkers = createRoute({
  operationId: "liveWorkers",
  method: "get",
  path: "/v1/t/{tenant}/workers",
  summary: "How many workers are live on the server's store",
  tags: ["jobs"],
  security,
  middleware: [permit("jobs.liveWorkers")] as const,
  request: { params: TenantParams },
  responses: { 200: json(WorkersSchema, "The live workers."), ...errors },
});

export function registerJobRoutes(app: OpenAPIHono<ServerEnv>, runtime: Runtime, pollMs: number): void {
  const jobs = runtime.services.jobs;
  app.openapi(startJob, async (c) => {
    const body = c.req.valid("json");
    const job = await jobs.start(c.get("caller"), {
      agent: body.agent,
      input: body.input,
      checkInput: body.check_input !== false,
      idempotencyKey: body.idempotency_key,
    });
    return c.json(job, 201);
  });

  app.openapi(getJob, async (c) => c.json(await jobs.get(c.get("caller"), c.req.valid("param").id), 200));

  app.openapi(searchJobs, async (c) => {
    const query = c.req.valid("query");
    return c.json({ jobs: await jobs.search(c.get("caller"), query) }, 200);
  });

  app.openapi(cancelJob, async (c) =>
    c.json(await jobs.cancel(c.get("caller"), c.req.valid("param").id), 200),
  );

  app.openapi(answerJob, async (c) =>
    c.json(await jobs.answer(c.get("caller"), c.req.valid("param").id, c.req.valid("json").answer), 200),
  );

  app.openapi(retryJob, async (c) => c.json(await jobs.retry(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(jobCard, async (c) =>
    c.json((await jobs.answerCard(c.get("caller"), c.req.valid("param").id)) as never, 200),
  );

  app.openapi(resumeJob, async (c) => {
    // Resumed with its signal already aborted, the job is checked and let go at once, queued or
    // under its lease: this server's worker takes it up, not the request.
    const { view } = await jobs.resume(c.get("caller"), c.req.valid("param").id, {
      signal: AbortSignal.abort(),
    });
    return c.json(view, 200);
  });

  app.openapi(liveWorkers, async (c) => c.json({ live: await jobs.liveWorkers(c.get("caller")) }, 200));

  app.openapi(jobEvents, async (c) => {
    const caller = c.get("caller");
    const { id } = c.req.valid("param");
    const resumeAt = lastEventId(c.req.valid("header")["last-event-id"]);
    if (resumeAt === null) {
      throw invalidRequest("Last-Event-ID header", [
        { path: ["last-event-id"], message: "must be the id (seq) of an event, a whole number of 0 or more" },
      ]);
    }
    const query = c.req.valid("query");
    const after = resumeAt ?? query.after ?? 0;
    // A resumed stream wants every event after the last it had, not a tail of them.
    const tail = resumeAt === undefined ? query.tail : undefined;
    if (!wantsEventStream(c.req.header("accept"))) {
      const page = await jobs.eventPage(caller, id, after);
      return c.json(tail === undefined ? page : { ...page, events: page.events.slice(-tail) }, 200);
    }
    // Checked before any stream opens: a missing or hidden job is an ordinary error answer.
    const stop = new AbortController();
    const items = await jobs.follow(caller, id, { after, tail, pollMs, signal: stop.signal });
    return followEvents(c, items, stop) as never;
  });
}
