// Chats: a conversation with an agent, each message a step of one job of mode chat. Opening a
// chat sends its first message and starts the job; each message after goes to that job; ending
// it lets the job succeed with its last answer. Every step is a runner's.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ChatTurn, Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
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
    description: "Answers once the agent has answered the message; the job then waits for the next one.",
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: z.object({ tenant: TenantParam }), ...body(OpenChatBody) },
    responses: { 201: json(TurnSchema, "The chat's job and the agent's answer."), ...errors },
  }),
  say: createRoute({
    operationId: "sayInChat",
    method: "post",
    path: "/v1/t/{tenant}/chats/{id}/messages",
    summary: "Send the next message of a chat",
    tags,
    security,
    middleware: [permit("chat.say")] as const,
    request: { params: JobParams, ...body(SayBody) },
    responses: { 200: json(TurnSchema, "The job and the agent's answer."), ...errors },
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
    return c.json(turn(await chat.say(c.get("caller"), { agent: sent.agent, text: sent.text })), 201);
  });
  app.openapi(routes.say, async (c) => {
    const said = await chat.say(c.get("caller"), {
      agent: "",
      job: c.req.valid("param").id,
      text: c.req.valid("json").text,
    });
    return c.json(turn(said), 200);
  });
  app.openapi(routes.end, async (c) => c.json(await chat.end(c.get("caller"), c.req.valid("param").id), 200));
}
