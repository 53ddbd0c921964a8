// The channels' part of every worker (`oz0 node`, `oz0 serve`): it drains the outbox on a short
// poll, at once when a message arrives in this process. Channels' listeners are not its: the
// runtime host runs each once per tenant cluster-wide (ChannelHost.listeners).
import type { ChannelHost } from "./host.js";

/**
 * How often the drain looks at the outbox when nothing woke it: a message this process received
 * wakes it at once, one another process received waits for this.
 */
export const CHANNEL_POLL_MS = 1_000;

export interface ChannelDrainerOptions {
  /** Only this tenant's channels; every tenant's when left out. */
  readonly tenant?: string | undefined;
  readonly pollMs?: number | undefined;
  /** Told of a fault the loop went on after. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

export class ChannelDrainer {
  readonly #host: ChannelHost;
  readonly #options: ChannelDrainerOptions;
  #stopped = false;
  #wake: (() => void) | undefined;
  #kicked = false;
  #loop: Promise<void> | undefined;
  #unlisten: (() => void) | undefined;

  constructor(host: ChannelHost, options: ChannelDrainerOptions = {}) {
    this.#host = host;
    this.#options = options;
  }

  start(): void {
    if (this.#loop !== undefined) throw new Error("this channel drainer has started already");
    this.#unlisten = this.#host.onMessage(() => this.#kick());
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unlisten?.();
    this.#kick();
    await this.#loop;
  }

  #kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        // A row that moved on may have more to do at once (a turn posted, then answered).
        while (!this.#stopped && (await this.#host.drain(this.#options.tenant)) > 0) {}
      } catch (error) {
        this.#options.onError?.(error);
      }
      if (this.#stopped) break;
      if (this.#kicked) {
        this.#kicked = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.pollMs ?? CHANNEL_POLL_MS);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
      this.#kicked = false;
    }
  }
}
