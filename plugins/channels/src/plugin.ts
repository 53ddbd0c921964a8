// The plugin: each channel registered with registerManagedChannelPlugin (its config section and
// the channel). Neither has a service of its own to run: both receive over the host's inbound
// endpoint, and their listeners (channel:webhook, channel:slack) do nothing.
import { definePlugin, type PluginConfig, type PluginObject, registerManagedChannelPlugin } from "@oz0/sdk";
import {
  redactSecrets,
  SLACK_SCHEMA,
  slackConfig,
  slackIssues,
  WEBHOOK_SCHEMA,
  webhookConfig,
  webhookIssues,
} from "./config.js";
import { slackChannel } from "./slack.js";
import { webhookChannel } from "./webhook.js";

export function createChannelsPlugin(): PluginObject {
  return definePlugin({
    setup(host) {
      registerManagedChannelPlugin<PluginConfig>(host, {
        name: "webhook",
        config: { schema: WEBHOOK_SCHEMA, validate: webhookIssues, redact: redactSecrets },
        supportsNotifications: true,
        notificationsEnabled: (config) => webhookConfig(config).notifications !== undefined,
        configured: (config) => {
          const read = webhookConfig(config);
          return read.secret !== undefined && read.url !== undefined;
        },
        build: (ctx) => webhookChannel(ctx.config),
      });
      registerManagedChannelPlugin<PluginConfig>(host, {
        name: "slack",
        config: { schema: SLACK_SCHEMA, validate: slackIssues, redact: redactSecrets },
        supportsNotifications: true,
        notificationsEnabled: (config) => slackConfig(config).notifications !== undefined,
        configured: (config) => {
          const read = slackConfig(config);
          return read.signingSecret !== undefined && read.botToken !== undefined;
        },
        build: (ctx) => slackChannel(ctx.config),
      });
    },
  });
}
