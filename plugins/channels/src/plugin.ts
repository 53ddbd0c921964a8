// The plugin: each channel registered with registerManagedChannelPlugin (its config section,
// the channel, and its runtime, which has nothing long-lived to run: both channels receive over
// the host's inbound endpoint).
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

const idle = () => ({ start() {}, stop() {} });

export function createChannelsPlugin(): PluginObject {
  return definePlugin({
    setup(host) {
      registerManagedChannelPlugin<PluginConfig>(host, {
        name: "webhook",
        config: { schema: WEBHOOK_SCHEMA, validate: webhookIssues, redact: redactSecrets },
        configured: (config) => {
          const read = webhookConfig(config);
          return read.secret !== undefined && read.url !== undefined;
        },
        build: (ctx) => webhookChannel(ctx.config),
        runtime: idle,
      });
      registerManagedChannelPlugin<PluginConfig>(host, {
        name: "slack",
        config: { schema: SLACK_SCHEMA, validate: slackIssues, redact: redactSecrets },
        configured: (config) => {
          const read = slackConfig(config);
          return read.signingSecret !== undefined && read.botToken !== undefined;
        },
        build: (ctx) => slackChannel(ctx.config),
        runtime: idle,
      });
    },
  });
}
