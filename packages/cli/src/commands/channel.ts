// `oz0 channel list`: the tenant's channels (webhook, Slack, a plugin's own), whether each is
// configured and sends notifications, and how many of its messages are in each outbox state.
// `oz0 channel send`: a message out through one, from its outbox, to try its delivery.
import type { ChannelView } from "@oz0/runtime";
import type { Command } from "commander";
import { withRuntime } from "../context.js";
import type { Output } from "../output.js";

export function registerChannel(program: Command, out: Output): Command {
  const channel = program.command("channel").description("list the tenant's channels and their outboxes");
  channel
    .command("list")
    .description("list the tenant's channels: configured, notifications, and the outbox's messages by state")
    .action(async () => {
      const channels = await withRuntime(out, ({ services, caller }) => services.channels.list(caller));
      out.result(channels, drawChannels);
    });
  channel
    .command("send")
    .description("send a message out through a channel, from its outbox, to try its delivery")
    .argument("<channel>", "the channel, <plugin>/<channel>, such as channels/slack")
    .argument("<text>", "the message")
    .requiredOption("--to <id>", "the surface's channel ID: a Slack channel, the webhook's channel")
    .option("--thread <id>", "the thread to post in")
    .action(async (address: string, text: string, options: { to: string; thread?: string }) => {
      const sent = await withRuntime(out, ({ services, caller }) =>
        services.channels.send(caller, {
          channel: address,
          channelId: options.to,
          threadId: options.thread,
          text,
        }),
      );
      out.result(sent, (result) => `queued message ${result.message}: oz0 node or oz0 serve delivers it`);
    });
  return channel;
}

function drawChannels(channels: readonly ChannelView[]): string {
  if (channels.length === 0)
    return "no channels: install a plugin that registers one (such as plugins/channels)";
  return channels
    .map((entry) =>
      [
        entry.channel,
        entry.enabled ? (entry.configured ? "configured" : "not configured") : "disabled",
        entry.supportsNotifications
          ? `notifications ${entry.notificationsEnabled ? "on" : "off"}`
          : "no notifications",
        `outbox: ${entry.outbox.inbound} inbound, ${entry.outbox.answering} answering, ${entry.outbox.delivering} delivering, ${entry.outbox.delivered} delivered, ${entry.outbox.failed} failed`,
      ].join(" · "),
    )
    .join("\n");
}
