// Channels: the tenant's channels with their outbox counts, by a viewer's key; and each
// channel's inbound endpoint, which takes no key: the channel's own verification (the webhook
// channel's HMAC, Slack's signing secret) is its credential, and an unverified request is
// refused before anything is stored.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ChannelHost, Services } from "@oz0/runtime";
import type { ServerEnv } from "../env.js";
import { ErrorSchema, TenantParam, TenantParams } from "../schemas.js";
import { errors, json, permit, security, segment } from "./shared.js";

const tags = ["channels"];

const ChannelSchema = z
  .object({
    channel: z.string().openapi({ description: "<plugin>/<channel>", example: "channels/slack" }),
    plugin: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    supportsNotifications: z.boolean(),
    configured: z.boolean(),
    notificationsEnabled: z.boolean(),
    outbox: z.object({
      inbound: z.number(),
      answering: z.number(),
      delivering: z.number(),
      delivered: z.number(),
      failed: z.number(),
    }),
  })
  .openapi("Channel");

const listChannels = createRoute({
  operationId: "listChannels",
  method: "get",
  path: "/v1/t/{tenant}/channels",
  summary: "The tenant's channels: configured, notifications, and their outbox counts",
  tags,
  security,
  middleware: [permit("channels.list")] as const,
  request: { params: TenantParams },
  responses: { 200: json(z.object({ channels: z.array(ChannelSchema) }), "The channels."), ...errors },
});

const InboundParams = z.object({
  tenant: TenantParam,
  plugin: z.string().openapi(segment("plugin", "channels")),
  channel: z.string().openapi(segment("channel", "slack")),
});

const inbound = createRoute({
  operationId: "channelInbound",
  method: "post",
  path: "/v1/t/{tenant}/channels/{plugin}/{channel}",
  summary: "A channel's inbound event: verified by the channel, stored, and answered through it later",
  description:
    'No API key: the channel verifies the request itself (the webhook channel: X-Oz0-Signature sha256=<hex HMAC-SHA256(secret, "<X-Oz0-Timestamp>.<body>")>; Slack: X-Slack-Signature v0=<hex HMAC-SHA256(signing secret, "v0:<X-Slack-Request-Timestamp>:<body>")>), with the timestamp within 300 s. A request not verified, or to a tenant, plugin or channel that does not exist or is not configured, is refused with UNAUTHENTICATED alike. A handshake (Slack\'s url_verification) is answered with its reply; any other event with what became of it. See docs/channels.md.',
  tags,
  request: {
    params: InboundParams,
    body: {
      content: {
        "*/*": {
          schema: z.string().openapi({ description: "The surface's event, exactly as it sends it." }),
        },
      },
      required: false,
    },
  },
  responses: {
    200: json(
      z
        .object({
          outcome: z.enum(["accepted", "duplicate", "ignored", "refused"]).optional(),
          message: z.string().optional().openapi({ description: "The stored message's ID, when accepted." }),
          reason: z.string().optional().openapi({ description: "Why a hook refused it." }),
        })
        .passthrough()
        .openapi({
          description: "What became of the event, or a handshake's reply (such as { challenge }).",
        }),
      "Verified.",
    ),
    401: json(ErrorSchema, "Not verified (UNAUTHENTICATED, data.reason: unverified or signature)."),
    default: json(ErrorSchema, "Any other error, in the one error shape, with its code's status."),
  },
});

const sendMessage = createRoute({
  operationId: "sendChannelMessage",
  method: "post",
  path: "/v1/t/{tenant}/channels/{plugin}/{channel}/messages",
  summary: "Send a message out through a channel, from its outbox, to try its delivery",
  tags,
  security,
  middleware: [permit("channels.send")] as const,
  request: {
    params: InboundParams,
    body: {
      content: {
        "application/json": {
          schema: z.object({
            to: z
              .string()
              .min(1)
              .max(256)
              .openapi({ description: "The surface's channel ID (a Slack channel, a webhook's channel)." }),
            thread: z.string().max(256).optional().openapi({ description: "The thread to post in." }),
            text: z.string().min(1).max(40_000),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    202: json(z.object({ message: z.string() }), "Queued in the outbox: the drain delivers it."),
    ...errors,
  },
});

export function registerChannelRoutes(app: OpenAPIHono<ServerEnv>, services: Services): void {
  app.openapi(listChannels, async (c) =>
    c.json({ channels: await services.channels.list(c.get("caller")) }, 200),
  );
  app.openapi(sendMessage, async (c) => {
    const { plugin, channel } = c.req.valid("param");
    const body = c.req.valid("json");
    const sent = await services.channels.send(c.get("caller"), {
      channel: `${plugin}/${channel}`,
      channelId: body.to,
      threadId: body.thread,
      text: body.text,
    });
    return c.json(sent, 202);
  });
}

/** The inbound endpoints. Registered before the bearer-key middleware: a key is neither asked for nor looked at. */
export function registerChannelInbound(app: OpenAPIHono<ServerEnv>, channels: ChannelHost): void {
  app.openapi(inbound, async (c) => {
    const param = c.req.valid("param");
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const result = await channels.receive({
      tenant: param.tenant,
      plugin: param.plugin,
      channel: param.channel,
      headers,
      // A signature covers these exact bytes.
      body: await c.req.text(),
    });
    if (result.kind === "reply") return c.json(result.reply as Record<string, unknown>, 200);
    const { kind: _, ...shown } = result;
    return c.json(shown, 200);
  });
}
