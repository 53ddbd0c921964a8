// Channels as callers see them: the tenant's channels with whether they are configured and send
// notifications, and their outbox counts, read by a viewer; a message sent out through one by an
// operator, to try its delivery. Inbound messages take no caller:
// the channel's own verification is their credential (`Runtime.channels.receive`).
import type { Caller } from "../callers/index.js";
import type { ChannelView } from "../channels/index.js";
import type { ServiceCore } from "./core.js";

export class ChannelsService {
  readonly #core: ServiceCore;

  constructor(core: ServiceCore) {
    this.#core = core;
  }

  async list(caller: Caller): Promise<ChannelView[]> {
    return this.#core.deps.channels.list(this.#core.check(caller, "channels.list"));
  }

  /** Sends a message out through a channel (`<plugin>/<channel>`) from its outbox, to try its delivery. */
  async send(
    caller: Caller,
    request: {
      readonly channel: string;
      readonly channelId: string;
      readonly threadId?: string | undefined;
      readonly text: string;
    },
  ): Promise<{ readonly message: string }> {
    return this.#core.change(caller, "channels.send", request.channel, (tenant) =>
      this.#core.deps.channels.send(tenant, { ...request, by: caller.actor }),
    );
  }
}
