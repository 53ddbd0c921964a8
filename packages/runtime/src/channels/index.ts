// Channels: messaging surfaces (a signed webhook, Slack, a plugin's own) as one mechanism. An
// inbound event, verified by the channel, becomes a job or the next turn of its thread's chat,
// fires the channel's routines, or decides an approval as the sender's member; the answer goes
// back through the channel's deliver from a durable outbox that workers drain under leases, and
// a channel with notifications on is told what a person must act on (notifications.ts).
export { type ChannelCommand, channelCommand } from "./commands.js";
export { ChannelDrainer, type ChannelDrainerOptions } from "./drainer.js";
export {
  CHANNEL_DEFAULTS,
  ChannelHost,
  type ChannelHostOptions,
  type ChannelTurns,
  type ChannelView,
  channelCaller,
  type InboundRequest,
  type InboundResult,
} from "./host.js";
export { type ChannelEntry, ChannelRegistry, type ChannelSource, channelAddress } from "./registry.js";
