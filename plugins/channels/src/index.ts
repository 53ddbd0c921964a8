// @oz0/plugin-channels: the code entry oz0 loads from plugin.yaml's `main: dist/index.js`.
import { createChannelsPlugin } from "./plugin.js";

export { type SlackConfig, slackConfig, type WebhookConfig, webhookConfig } from "./config.js";
export { createChannelsPlugin } from "./plugin.js";
export { hmacHex, WINDOW_SECONDS } from "./signing.js";
export { slackChannel } from "./slack.js";
export { webhookChannel } from "./webhook.js";

export default createChannelsPlugin();
