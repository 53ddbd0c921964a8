// The Slack-compatible channel. In: the Events API (a POST per event), verified with the app's
// signing secret (`X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:<ts>:<body>")>`, the
// timestamp within five minutes); the url_verification handshake is answered with its
// challenge. A message's thread (`thread_ts`, or its own `ts` when it starts one) is one chat.
// Out: `chat.postMessage` with the bot token, in the thread.
import {
  type Channel,
  type ChannelReply,
  type ChannelRequest,
  type ChannelVerdict,
  type PluginConfig,
  type SurfaceAttachment,
  SurfaceEnvelope,
  type SurfaceResponse,
} from "@oz0/sdk";
import { slackConfig } from "./config.js";
import { hmacHex, sameHex, staleTimestamp } from "./signing.js";

export function slackChannel(config: PluginConfig): Channel {
  const read = slackConfig(config);
  return {
    ...(read.agent === undefined ? {} : { agent: read.agent }),
    members: read.members,
    verify(request: ChannelRequest): ChannelVerdict {
      if (read.signingSecret === undefined)
        return { ok: false, reason: "the Slack channel has no signing secret set" };
      const timestamp = request.headers["x-slack-request-timestamp"];
      const stale = staleTimestamp(timestamp, request.receivedAt);
      if (stale !== undefined) return { ok: false, reason: stale };
      const given = (request.headers["x-slack-signature"] ?? "").trim();
      const ok =
        given.startsWith("v0=") &&
        sameHex(given.slice(3), hmacHex(read.signingSecret, `v0:${timestamp}:${request.body}`));
      return ok ? { ok: true } : { ok: false, reason: "the v0 signature does not match the signing secret" };
    },
    ingest(raw: unknown): SurfaceEnvelope | ChannelReply | undefined {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse((raw as ChannelRequest).body) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      if (body.type === "url_verification" && typeof body.challenge === "string") {
        return { reply: { challenge: body.challenge } };
      }
      if (body.type !== "event_callback") return undefined;
      const event = body.event as Record<string, unknown> | undefined;
      if (event === undefined || (event.type !== "message" && event.type !== "app_mention")) return undefined;
      // The bot's own messages, edits and other subtypes are no one talking to the agent.
      if (event.bot_id !== undefined || event.subtype !== undefined) return undefined;
      const { channel, user, text, ts } = event;
      if (
        typeof channel !== "string" ||
        typeof user !== "string" ||
        typeof text !== "string" ||
        typeof ts !== "string"
      ) {
        return undefined;
      }
      const thread = typeof event.thread_ts === "string" ? event.thread_ts : ts;
      return new SurfaceEnvelope({
        surfaceType: "slack",
        channelId: channel,
        senderId: user,
        threadId: thread,
        content: text,
        attachments: files(event.files),
        metadata: {
          ...(typeof body.event_id === "string" ? { eventId: body.event_id } : {}),
          ...(typeof body.team_id === "string" ? { team: body.team_id } : {}),
          ts,
        },
      });
    },
    async deliver(envelope: SurfaceEnvelope, response: SurfaceResponse): Promise<void> {
      if (read.botToken === undefined) throw new Error("the Slack channel has no bot token to post with");
      const answer = await fetch(`${read.apiUrl}/chat.postMessage`, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          authorization: `Bearer ${read.botToken}`,
        },
        body: JSON.stringify({
          channel: envelope.channelId,
          text: response.content,
          ...(envelope.threadId === "" ? {} : { thread_ts: envelope.threadId }),
        }),
        redirect: "error",
      });
      if (!answer.ok) throw new Error(`chat.postMessage answered HTTP ${answer.status}`);
      const result = (await answer.json()) as { ok?: boolean; error?: string };
      if (result.ok !== true)
        throw new Error(`chat.postMessage refused: ${result.error ?? "no reason given"}`);
    },
  };
}

function files(value: unknown): SurfaceAttachment[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((file): file is Record<string, unknown> => typeof file === "object" && file !== null)
    .map((file) => ({
      ...(typeof file.name === "string" ? { name: file.name } : {}),
      ...(typeof file.mimetype === "string" ? { contentType: file.mimetype } : {}),
      ...(typeof file.url_private === "string" ? { url: file.url_private } : {}),
      ...(typeof file.size === "number" ? { size: file.size } : {}),
    }));
}
