// Chats: a conversation with an agent, each message a step of one job of mode chat. Opening a
// chat sends its first message and starts the job; each message after goes to that job; ending
// it lets the job succeed with its last answer. Every step is a runner's. Asked with Accept:
// text/event-stream, a message's answer streams as the model writes it.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ChatTurn, Services } from "@oz0/runtime";
import { errorShape } from "@oz0/sdk";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ServerEnv } from "../env.js";
import { wantsEventStream } from "../events.js";
import { JobParams, JobSchema, TenantParam } from "../schemas.js";
import { body, errors, json, permit, security } from "./shared.js";

const TurnSchema = z
  .object({
    job: JobSchema,
    answer: z.unknown().openapi({ description: "The model's last answer; null when it gave none." }),
    card: z
      .unknown()
      .optional()
      .openapi({ description: "The answer's card, when the job waits for the next message." }),
  })
  .openapi("ChatTurn");

const OpenChatBody = z
  .object({
    agent: z.string().min(1).max(256).openapi({ example: "helpdesk/triage" }),
    text: z.string().min(1).openapi({ description: "The first message." }),
  })
  .strict()
  .openapi("OpenChat");

const SayBody = z
  .object({ text: z.string().min(1) })
  .strict()
  .openapi("ChatMessage");

const tags = ["chat"];

const STREAMED =
  'With Accept: text/event-stream, once the model starts answering: server-sent events, `event: delta` frames with `data: {"text": "<chunk>"}` as the model writes, then one `event: turn` with the turn (or `event: error` with the error shape). A turn refused or ended before any text comes answers as JSON either way.';

/** A turn's answer as JSON, or, asked for and once text comes, as server-sent events. */
const turnContent = {
  "application/json": { schema: TurnSchema },
  "text/event-stream": { schema: z.string().openapi({ description: "delta frames, then turn (or error)." }) },
};

const routes = {
  agent: createRoute({
    operationId: "chatAgent",
    method: "get",
    path: "/v1/t/{tenant}/chats/agent",
    summary: "Check that an address names an agent the caller may chat with",
    description:
      "What a client asks before the first message: a flow, a tool or a missing agent is refused as NOT_FOUND saying what it is.",
    tags,
    security,
    middleware: [permit("chat.open")] as const,
    request: {
      params: z.object({ tenant: TenantParam }),
      query: z.object({ agent: z.string().min(1).max(256).openapi({ example: "helpdesk/triage" }) }),
    },
    responses: {
      200: json(z.object({ plugin: z.string(), name: z.string() }).openapi("ChatAgent"), "The agent."),
      ...errors,
    },
  }),
  open: createRoute({
    operationId: "openChat",
    method: "post",
    path: "/v1/t/{tenant}/chats",
    summary: "Open a chat with an agent: its first message starts the chat's job",
    description: `Answers once the agent has answered the message; the job then waits for the next one. ${STREAMED}`,
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: z.object({ tenant: TenantParam }), ...body(OpenChatBody) },
    responses: {
      200: { content: turnContent, description: "The answer, streamed (event stream only)." },
      201: { content: turnContent, description: "The chat's job and the agent's answer." },
      ...errors,
    },
  }),
  say: createRoute({
    operationId: "sayInChat",
    method: "post",
    path: "/v1/t/{tenant}/chats/{id}/messages",
    summary: "Send the next message of a chat",
    description: STREAMED,
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: JobParams, ...body(SayBody) },
    responses: { 200: { content: turnContent, description: "The job and the agent's answer." }, ...errors },
  }),
  end: createRoute({
    operationId: "endChat",
    method: "post",
    path: "/v1/t/{tenant}/chats/{id}/end",
    summary: "End a chat: its job succeeds with its last answer",
    tags,
    security,
    middleware: [permit("chat.end")] as const,
    request: { params: JobParams },
    responses: { 200: json(JobSchema, "The chat's job, ended."), ...errors },
  }),
};

/** A turn as the API shapes it; `never` because zod's unknown answer is any JSON to Hono. */
function turn(said: ChatTurn): never {
  return {
    job: said.view,
    answer: said.answer,
    ...(said.card === undefined ? {} : { card: said.card }),
  } as never;
}

type Say = (watch: { onText?: (text: string) => void }) => Promise<ChatTurn>;

/**
 * Runs one turn. Unless the client asked for an event stream, or until the model's first text
 * comes, it answers as JSON (so a refusal keeps its status); from then on the text streams as
 * `delta` frames, and the turn, or its error, ends the stream.
 */
async function answer(c: Context<ServerEnv>, say: Say, status: 200 | 201): Promise<Response> {
  if (!wantsEventStream(c.req.header("accept"))) return c.json(turn(await say({})), status);
  const texts: string[] = [];
  let wake = () => {};
  const said = say({
    onText: (text) => {
      texts.push(text);
      wake();
    },
  }).then(
    (done) => ({ done }),
    (error: unknown) => ({ error }),
  );
  const woken = () => new Promise<"text">((resolve) => (wake = () => resolve("text")));
  const first = await Promise.race([said, woken()]);
  if (first !== "text" && texts.length === 0) {
    if ("error" in first) throw first.error;
    return c.json(turn(first.done), status);
  }
  return streamSSE(c, async (stream) => {
    for (;;) {
      const next = texts.length > 0 ? "text" : await Promise.race([said, woken()]);
      // A client gone away stops reading; the turn goes on to its end in the chat's job.
      if (stream.aborted || stream.closed) return;
      for (const text of texts.splice(0))
        await stream.writeSSE({ event: "delta", data: JSON.stringify({ text }) });
      if (next === "text") continue;
      if (texts.length > 0) continue;
      if ("error" in next)
        await stream.writeSSE({ event: "error", data: JSON.stringify(errorShape(next.error)) });
      else await stream.writeSSE({ event: "turn", data: JSON.stringify(turn(next.done)) });
      return;
    }
  });
}

export function registerChatRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { chat } = services;
  app.openapi(routes.agent, async (c) => {
    const { plugin, name } = await chat.open(c.get("caller"), c.req.valid("query").agent);
    return c.json({ plugin, name }, 200);
  });
  app.openapi(routes.open, async (c) => {
    const sent = c.req.valid("json");
    return answer(
      c,
      (watch) => chat.say(c.get("caller"), { agent: sent.agent, text: sent.text }, watch),
      201,
    ) as never;
  });
  app.openapi(routes.say, async (c) => {
    const message = { agent: "", job: c.req.valid("param").id, text: c.req.valid("json").text };
    return answer(c, (watch) => chat.say(c.get("caller"), message, watch), 200) as never;
  });
  app.openapi(routes.end, async (c) => c.json(await chat.end(c.get("caller"), c.req.valid("param").id), 200));
}
