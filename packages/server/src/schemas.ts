// The API's shapes as zod schemas: they validate requests, and the OpenAPI document is made
// from them, so the two cannot disagree.

import { z } from "@hono/zod-openapi";
import { ERROR_CODES } from "@oz0/sdk";

const JOB_STATUSES = ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "dead"] as const;

export const TenantParam = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: "tenant", in: "path" }, example: "default" });

export const JobIdParam = z
  .string()
  .min(1)
  .max(512)
  .openapi({ param: { name: "id", in: "path" }, example: "triage-m8x2k1a0q7fz3d" });

export const TenantParams = z.object({ tenant: TenantParam });
export const JobParams = z.object({ tenant: TenantParam, id: JobIdParam });

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
      message: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
      side: z.enum(["user", "system"]),
      status: z.number().int(),
      retryable: z.boolean(),
      stack: z.string().optional().openapi({ description: "Only in development (OZ0_DEV=1)." }),
    }),
  })
  .openapi("Error");

const FailureSchema = z
  .object({
    kind: z.string(),
    message: z.string(),
    code: z.string().optional(),
    retryable: z.boolean().optional(),
    partial: z.boolean().optional(),
    person: z.boolean().optional(),
  })
  .openapi("JobFailure");

const WaitingForSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("answer"), callId: z.string(), question: z.string() }),
    z.object({ kind: z.literal("chat") }),
    z.object({ kind: z.literal("child"), callId: z.string(), job: z.string() }),
    z.object({ kind: z.literal("approval"), callId: z.string(), approval: z.string() }),
  ])
  .openapi("WaitingFor");

export const JobSchema = z
  .object({
    id: z.string(),
    tenant: z.string(),
    agent: z.string().openapi({ description: "The agent or flow by address, <plugin>/<agent>." }),
    status: z.enum(JOB_STATUSES),
    mode: z.enum(["run", "chat"]),
    input: z.unknown(),
    output: z.unknown().openapi({ description: "The answer once the job succeeded; null before." }),
    failure: FailureSchema.nullable(),
    parent: z.string().nullable(),
    depth: z.number().int(),
    tags: z.array(z.string()).readonly(),
    attempts: z.number().int(),
    queue: z.string().openapi({ description: "The task queue it runs on: pool.<plugin>[.<labels>]." }),
    unserved: z
      .string()
      .nullable()
      .openapi({ description: "Why no live node takes it while it waits to run; null otherwise." }),
    waitingFor: WaitingForSchema.nullable(),
    cancelRequestedBy: z.string().nullable(),
    createdAt: z.number().int().openapi({ description: "Epoch milliseconds, by the database's clock." }),
    updatedAt: z.number().int(),
  })
  .openapi("Job");

export const StartJobBody = z
  .object({
    agent: z.string().min(1).max(256).openapi({ example: "support-triage/triage" }),
    input: z.unknown().openapi({ description: "Text, or an object for an agent with an input_schema." }),
    idempotency_key: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "A second StartJob of the same agent with this key returns the first job." }),
    check_input: z.boolean().optional().openapi({
      description:
        "true (the default): an input that does not match the agent's input_schema is refused (422) before the job exists. false: the job starts and fails with invalid_input before the agent starts, as oz0 run's does.",
    }),
  })
  .strict()
  .openapi("StartJob");

export const SearchQuery = z.object({
  agent: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .openapi({ description: "Only jobs of this agent or flow, by address." }),
  status: z.enum(JOB_STATUSES).optional(),
  tag: z.string().min(1).max(64).optional(),
  parent: z.string().min(1).max(512).optional(),
  since: epochMs("since").openapi({
    type: "integer",
    description: "Only jobs started at or after this time, in epoch milliseconds.",
    example: 1764579600000,
  }),
  until: epochMs("until").openapi({
    type: "integer",
    description:
      "Only jobs started before this time, in epoch milliseconds; after `since` when both are given.",
    example: 1764666000000,
  }),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ type: "integer", example: 50 }),
});

/** A query's time: whole epoch milliseconds, refused in words that say so. */
function epochMs(name: string) {
  const said = `${name} takes a time in epoch milliseconds, a whole number of 0 or more such as 1764579600000`;
  return z.coerce
    .number({ error: said })
    .int({ error: said })
    .min(0, { error: said })
    .max(Number.MAX_SAFE_INTEGER, { error: said })
    .optional();
}

export const JobListSchema = z.object({ jobs: z.array(JobSchema) }).openapi("JobList");

export const AnswerBody = z
  .object({ answer: z.string().max(100_000) })
  .strict()
  .openapi("Answer");

export const EventSchema = z
  .object({
    seq: z
      .number()
      .int()
      .openapi({ description: "The event's place in the job's history, from 1; the SSE event id." }),
    at: z.number().int(),
    kind: z.string(),
    data: z.unknown(),
  })
  .openapi("JobEvent");

export const EventsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().openapi({
    type: "integer",
    description: "Only events whose seq is greater (as Last-Event-ID does for a stream).",
  }),
  tail: z.coerce.number().int().min(1).max(100_000).optional().openapi({
    type: "integer",
    description:
      "Only the newest this many of those events; a stream then gives every event written after them. A stream resumed with Last-Event-ID gives every event after it.",
  }),
});

export const EventListSchema = z
  .object({ job: JobSchema, events: z.array(EventSchema) })
  .openapi("JobEvents");

export const HealthSchema = z.object({ status: z.literal("ok") }).openapi("Health");

export const CardSchema = z
  .object({ kind: z.enum(["text", "key_values", "table", "diff"]) })
  .catchall(z.unknown())
  .openapi("Card", { description: "A job's answer as data to draw: text, key-values, a table or a diff." });

export const WorkersSchema = z
  .object({ live: z.number().int().openapi({ description: "Workers live on the store now." }) })
  .openapi("Workers");
