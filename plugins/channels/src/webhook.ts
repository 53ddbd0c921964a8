// The generic webhook channel. In: a POST whose body is a JSON message (docs/channels.md), signed
// as `X-Oz0-Signature: sha256=<hex HMAC-SHA256(secret, "<X-Oz0-Timestamp>.<body>")>`. Out: each
// answer POSTed as JSON to the configured URL, signed the same way with the same secret; with
// notifications on, a thread's answer carries the notification, and `notifications.url` is
// POSTed every other approval and question of the tenant.
import {
  type Channel,
  type ChannelNotification,
  type ChannelRequest,
  type ChannelVerdict,
  Oz0Error,
  type PluginConfig,
  SurfaceEnvelope,
  type SurfaceResponse,
} from "@oz0/sdk";
import { type WebhookConfig, webhookConfig } from "./config.js";
import { hmacHex, sameHex, staleTimestamp } from "./signing.js";

export function webhookChannel(config: PluginConfig): Channel {
  const read = webhookConfig(config);
  return {
    ...(read.agent === undefined ? {} : { agent: read.agent }),
    members: read.members,
    verify(request: ChannelRequest): ChannelVerdict {
      if (read.secret === undefined) return { ok: false, reason: "the webhook channel has no secret set" };
      const timestamp = request.headers["x-oz0-timestamp"];
      const stale = staleTimestamp(timestamp, request.receivedAt);
      if (stale !== undefined) return { ok: false, reason: stale };
      const given = (request.headers["x-oz0-signature"] ?? "")
        .trim()
        .replace(/^sha256=/, "")
        .toLowerCase();
      return sameHex(given, hmacHex(read.secret, `${timestamp}.${request.body}`))
        ? { ok: true }
        : {
            ok: false,
            reason:
              "the signature does not match; sign <timestamp>.<body> with HMAC-SHA256 and the channel's secret",
          };
    },
    ingest(raw: unknown): SurfaceEnvelope | undefined {
      const message = parse((raw as ChannelRequest).body);
      return new SurfaceEnvelope({
        surfaceType: "webhook",
        channelId: message.channel,
        senderId: message.sender,
        threadId: message.thread ?? "",
        content: message.text,
        attachments: message.attachments ?? [],
        metadata: {
          ...(message.metadata ?? {}),
          ...(message.id === undefined ? {} : { eventId: message.id }),
          ...(message.action === undefined ? {} : { action: message.action }),
        },
      });
    },
    async deliver(envelope: SurfaceEnvelope, response: SurfaceResponse): Promise<void> {
      await post(read, read.url, {
        channel: envelope.channelId,
        thread: envelope.threadId,
        inReplyTo: typeof envelope.metadata.eventId === "string" ? envelope.metadata.eventId : null,
        text: response.content,
        ...(response.output === undefined ? {} : { output: response.output }),
        ...(response.notification === undefined ? {} : { notification: response.notification }),
        ...(response.command === undefined ? {} : { command: response.command }),
        job: response.jobId ?? null,
      });
    },
    ...(read.notifications?.url === undefined
      ? {}
      : {
          async notify(notification: ChannelNotification): Promise<void> {
            await post(read, read.notifications?.url, { kind: "notification", notification });
          },
        }),
  };
}

/** POSTs `message` as JSON to `url`, signed with the secret; any answer but 2xx fails it. */
async function post(
  read: WebhookConfig,
  url: string | undefined,
  message: Record<string, unknown>,
): Promise<void> {
  if (read.secret === undefined || url === undefined) {
    throw new Error("the webhook channel has no url or secret to answer with");
  }
  const body = JSON.stringify(message);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const answer = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-oz0-timestamp": timestamp,
      "x-oz0-signature": `sha256=${hmacHex(read.secret, `${timestamp}.${body}`)}`,
    },
    body,
    redirect: "error",
  });
  if (!answer.ok) throw new Error(`the webhook URL answered ${answer.status}`);
}

interface WebhookMessage {
  readonly id?: string;
  readonly channel: string;
  readonly sender: string;
  readonly thread?: string;
  readonly text: string;
  readonly attachments?: readonly Record<string, unknown>[];
  readonly metadata?: Record<string, unknown>;
  readonly action?: Record<string, unknown>;
}

/** The message a body holds; a body that is no such message is refused naming what is wrong. */
function parse(body: string): WebhookMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw invalid("the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid("the body is not a JSON object");
  const message = value as Record<string, unknown>;
  for (const field of ["channel", "sender", "text"] as const) {
    if (typeof message[field] !== "string" || message[field] === "")
      throw invalid(`${field} must be a non-empty string`);
  }
  for (const field of ["id", "thread"] as const) {
    if (message[field] !== undefined && typeof message[field] !== "string")
      throw invalid(`${field} must be a string`);
  }
  if (message.attachments !== undefined && !Array.isArray(message.attachments))
    throw invalid("attachments must be an array");
  for (const field of ["metadata", "action"] as const) {
    const part = message[field];
    if (part !== undefined && (typeof part !== "object" || part === null || Array.isArray(part))) {
      throw invalid(`${field} must be an object`);
    }
  }
  return message as unknown as WebhookMessage;
}

function invalid(why: string): Oz0Error {
  return new Oz0Error(
    "INVALID_INPUT",
    `the webhook message was refused: ${why} (docs/channels.md#the-webhook-channel).`,
    {
      data: { issues: [{ path: "", message: why }] },
    },
  );
}
