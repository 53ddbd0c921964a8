// The Slack-compatible channel. In: the Events API (a POST per event), verified with the app's
// signing secret (`X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:<ts>:<body>")>`, the
// timestamp within five minutes); the url_verification handshake is answered with its
// challenge. A message's thread (`thread_ts`, or its own `ts` when it starts one) is one chat.
// Interactivity requests (a click on an approve or deny button: `payload=` form-encoded
// `block_actions`) come to the same endpoint, verified the same way, and carry the decision as
// the clicking user. Out: `chat.postMessage` with the bot token, in the thread; a notification
// with approve and deny buttons (Block Kit); after a click, `chat.update` of the message that
// had the buttons, or `chat.postEphemeral` to the clicking user when the click was refused.
import {
  type Channel,
  type ChannelNotification,
  type ChannelReply,
  type ChannelRequest,
  type ChannelVerdict,
  type PluginConfig,
  type SurfaceAttachment,
  SurfaceEnvelope,
  type SurfaceResponse,
} from "@oz0/sdk";
import { type SlackConfig, slackConfig } from "./config.js";
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
      const request = raw as ChannelRequest;
      if (isForm(request)) return interaction(request.body);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(request.body) as Record<string, unknown>;
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
      const clicked = clickOf(envelope.metadata.interaction);
      if (clicked !== undefined && response.command !== undefined) {
        if (response.command.done) {
          // The buttons go: the message keeps what it asked, and says what was decided and by whom.
          await slackCall(read, "chat.update", {
            channel: envelope.channelId,
            ts: clicked.messageTs,
            text: response.content,
            blocks: [...clicked.blocks, context(`${response.content} (<@${envelope.senderId}>)`)],
          });
          return;
        }
        // Only the clicking user hears why nothing was decided; the buttons stay for someone who may.
        await slackCall(read, "chat.postEphemeral", {
          channel: envelope.channelId,
          user: envelope.senderId,
          text: response.content,
          ...(clicked.threadTs === undefined ? {} : { thread_ts: clicked.threadTs }),
        });
        return;
      }
      await slackCall(read, "chat.postMessage", {
        channel: envelope.channelId,
        text: response.content,
        ...(response.notification === undefined ? {} : { blocks: notificationBlocks(response.notification) }),
        ...(envelope.threadId === "" ? {} : { thread_ts: envelope.threadId }),
      });
    },
    ...(read.notifications?.channel === undefined
      ? {}
      : {
          async notify(notification: ChannelNotification): Promise<void> {
            await slackCall(read, "chat.postMessage", {
              channel: read.notifications?.channel,
              text: notification.body,
              blocks: notificationBlocks(notification),
            });
          },
        }),
  };
}

/** One Web API call with the bot token; an answer without `"ok": true` fails the delivery. */
async function slackCall(read: SlackConfig, method: string, body: Record<string, unknown>): Promise<void> {
  if (read.botToken === undefined) throw new Error("the Slack channel has no bot token to post with");
  const answer = await fetch(`${read.apiUrl}/${method}`, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      authorization: `Bearer ${read.botToken}`,
    },
    body: JSON.stringify(body),
    redirect: "error",
  });
  if (!answer.ok) throw new Error(`${method} answered HTTP ${answer.status}`);
  const result = (await answer.json()) as { ok?: boolean; error?: string };
  if (result.ok !== true) throw new Error(`${method} refused: ${result.error ?? "no reason given"}`);
}

/** The action IDs of the buttons an approval notification carries; a click's value is the approval. */
export const APPROVE_ACTION = "oz0.approve";
export const DENY_ACTION = "oz0.deny";

/** Slack's limit on a section's text. */
const SECTION_LIMIT = 3000;

/** What a click needs to update its message: where the message is, and its blocks without the buttons. */
interface Click {
  readonly messageTs: string;
  /** The thread the message is in, if it is in one. */
  readonly threadTs?: string;
  readonly blocks: readonly unknown[];
}

function clickOf(value: unknown): Click | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { messageTs, threadTs, blocks } = value as Record<string, unknown>;
  if (typeof messageTs !== "string") return undefined;
  return {
    messageTs,
    ...(typeof threadTs === "string" ? { threadTs } : {}),
    blocks: Array.isArray(blocks) ? blocks : [],
  };
}

function isForm(request: ChannelRequest): boolean {
  return (request.headers["content-type"] ?? "")
    .toLowerCase()
    .startsWith("application/x-www-form-urlencoded");
}

/**
 * A click on a notification's approve or deny button (`block_actions`) as the envelope of a
 * command: sent by the clicking user, in the message's thread. Any other interaction is ignored.
 */
function interaction(body: string): SurfaceEnvelope | undefined {
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(new URLSearchParams(body).get("payload") ?? "") as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (payload.type !== "block_actions") return undefined;
  const user = (payload.user as { id?: unknown } | undefined)?.id;
  const channel = (payload.channel as { id?: unknown } | undefined)?.id;
  const message = payload.message as Record<string, unknown> | undefined;
  const action = Array.isArray(payload.actions) ? (payload.actions[0] as Record<string, unknown>) : undefined;
  if (
    typeof user !== "string" ||
    typeof channel !== "string" ||
    typeof message?.ts !== "string" ||
    (action?.action_id !== APPROVE_ACTION && action?.action_id !== DENY_ACTION) ||
    typeof action.value !== "string"
  ) {
    return undefined;
  }
  const kind = action.action_id === APPROVE_ACTION ? "approve" : "deny";
  const blocks = Array.isArray(message.blocks)
    ? message.blocks.filter((block) => (block as { type?: unknown })?.type !== "actions")
    : [];
  return new SurfaceEnvelope({
    surfaceType: "slack",
    channelId: channel,
    senderId: user,
    threadId: typeof message.thread_ts === "string" ? message.thread_ts : message.ts,
    content: `${kind} ${action.value}`,
    metadata: {
      action: { kind, approval: action.value },
      interaction: {
        messageTs: message.ts,
        ...(typeof message.thread_ts === "string" ? { threadTs: message.thread_ts } : {}),
        blocks,
      },
      ...(typeof (payload.team as { id?: unknown } | undefined)?.id === "string"
        ? { team: (payload.team as { id: string }).id }
        : {}),
    },
  });
}

/** A notification as Block Kit: what is asked, the call's arguments, and for an approval its buttons. */
function notificationBlocks(notification: ChannelNotification): unknown[] {
  const action = notification.action;
  if (action?.kind !== "approval") return [section(notification.body)];
  const args = JSON.stringify(action.call.args, null, 2);
  const fence = "```";
  const room = SECTION_LIMIT - 2 * fence.length;
  const shown =
    args.length <= room
      ? `${fence}${args}${fence}`
      : `${fence}${args.slice(0, room - 80)}${fence}\n_cut at ${room - 80} of ${args.length} characters: oz0 approval get ${action.approval} shows them all_`;
  return [
    section(
      `*${mrkdwn(notification.title)}*\njob \`${action.job}\` (${mrkdwn(action.agent)}) would call \`${mrkdwn(action.call.address)}\` with:`,
    ),
    { type: "section", text: { type: "mrkdwn", text: mrkdwn(shown) } },
    context(`approval ${action.approval}${action.rule === "" ? "" : ` · rule ${mrkdwn(action.rule)}`}`),
    {
      type: "actions",
      block_id: "oz0.approval",
      elements: [
        button(APPROVE_ACTION, "Approve", "primary", action.approval),
        button(DENY_ACTION, "Deny", "danger", action.approval),
      ],
    },
  ];
}

function section(text: string) {
  return { type: "section", text: { type: "mrkdwn", text: text.slice(0, SECTION_LIMIT) } };
}

function context(text: string) {
  return { type: "context", elements: [{ type: "mrkdwn", text: text.slice(0, SECTION_LIMIT) }] };
}

function button(actionId: string, label: string, style: "primary" | "danger", value: string) {
  return { type: "button", action_id: actionId, text: { type: "plain_text", text: label }, style, value };
}

/** Slack's mrkdwn takes &, < and > as markup: what the arguments hold is shown as it is. */
function mrkdwn(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
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
