// Channels as callers see them: the tenant's channels with whether they are configured and send
// notifications, and their outbox counts, read by a viewer. Inbound messages take no caller:
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
}
