// Chats: a conversation with an agent, each message a step of one job of mode chat. Opening a
// chat sends its first message and starts the job; each message after goes to that job; ending
// it lets the job succeed with its last answer. Every step is a runner's.
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

function turnResponse(description: string) {
  return {
    content: {
      "application/json": { schema: TurnSchema },
      "text/event-stream": { schema: z.string().openapi({ description: "Server-sent events." }) },
    },
    description,
  };
}

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
    description:
      "Answers once the agent has answered the message; the job then waits for the next one. With Accept: text/event-stream the answer is a stream instead: `event: job` (`{id}`) once the job exists, `event: delta` (`{text}`) as the model's text arrives, then `event: turn` with the turn as the JSON answer has it; a failure once the stream has opened is `event: error` with the error as any error answer has it.",
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: z.object({ tenant: TenantParam }), ...body(OpenChatBody) },
    responses: { 201: turnResponse("The chat's job and the agent's answer."), ...errors },
  }),
  say: createRoute({
    operationId: "sayInChat",
    method: "post",
    path: "/v1/t/{tenant}/chats/{id}/messages",
    summary: "Send the next message of a chat",
    description:
      "Answers once the agent has answered it. With Accept: text/event-stream the answer is a stream instead: `event: job` (`{id}`) once the job exists, `event: delta` (`{text}`) as the model's text arrives, then `event: turn` with the turn as the JSON answer has it; a failure once the stream has opened is `event: error` with the error as any error answer has it.",
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: JobParams, ...body(SayBody) },
    responses: { 200: turnResponse("The job and the agent's answer."), ...errors },
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

export function registerChatRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  const { chat } = services;
  app.openapi(routes.agent, async (c) => {
    const { plugin, name } = await chat.open(c.get("caller"), c.req.valid("query").agent);
    return c.json({ plugin, name }, 200);
  });
  app.openapi(routes.open, async (c) => {
    const sent = c.req.valid("json");
    const caller = c.get("caller");
    const message = { agent: sent.agent, text: sent.text };
    if (wantsEventStream(c.req.header("accept"))) {
      // Refused before the stream opens: a missing or hidden agent is an ordinary error answer.
      await chat.open(caller, sent.agent);
      return streamTurn(c, (watch) => chat.say(caller, message, watch)) as never;
    }
    return c.json(turn(await chat.say(caller, message)), 201);
  });
  app.openapi(routes.say, async (c) => {
    const caller = c.get("caller");
    const id = c.req.valid("param").id;
    const message = { agent: "", job: id, text: c.req.valid("json").text };
    if (wantsEventStream(c.req.header("accept"))) {
      await services.jobs.get(caller, id);
      return streamTurn(c, (watch) => chat.say(caller, message, watch)) as never;
    }
    return c.json(turn(await chat.say(caller, message)), 200);
  });
  app.openapi(routes.end, async (c) => c.json(await chat.end(c.get("caller"), c.req.valid("param").id), 200));
}

type Say = Parameters<Services["chat"]["say"]>[2];

/** A turn as server-sent events: the job once it exists, the model's text as it comes, the turn. */
function streamTurn(c: Context<ServerEnv>, say: (watch: NonNullable<Say>) => Promise<ChatTurn>): Response {
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    stream.onAbort(() => stop.abort());
    // Frames are written in order: each waits for the one before it.
    let written: Promise<unknown> = Promise.resolve();
    const send = (event: string, data: unknown) => {
      written = written.then(() => stream.writeSSE({ event, data: JSON.stringify(data) }));
    };
    try {
      const said = await say({
        signal: stop.signal,
        onJob: (id) => send("job", { id }),
        onText: (text) => send("delta", { text }),
      });
      send("turn", turn(said));
    } catch (error) {
      send("error", errorShape(error));
    }
    await written;
  });
}
