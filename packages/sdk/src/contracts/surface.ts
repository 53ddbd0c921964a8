// Surface adapters connect outside delivery surfaces (Slack, web, CLI, a remote agent) to
// oz0: an adapter turns a surface's raw event into a SurfaceEnvelope, and delivers the
// answer back. Registered with the host, an adapter is a channel named by its surfaceType.
import { Oz0Error } from "../errors/index.js";
import type { ChannelNotification, ChannelRequest, ChannelVerdict } from "../host/specs.js";
import { CapabilityContract } from "./base.js";

/** A file attached to a message; surfaces add their own fields. */
export interface SurfaceAttachment {
  readonly name?: string;
  readonly contentType?: string;
  readonly url?: string;
  readonly size?: number;
  readonly [field: string]: unknown;
}

export interface SurfaceEnvelopeInit {
  readonly surfaceType: string;
  readonly channelId: string;
  readonly senderId: string;
  /** `""` when the surface has no threads. */
  readonly threadId?: string;
  readonly content: string;
  readonly attachments?: readonly SurfaceAttachment[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** One inbound message, in the same shape whatever surface it came from. */
export class SurfaceEnvelope {
  /** `slack`, `discord`, `web`, `cli`, `agent-remote`, … */
  readonly surfaceType: string;
  /** The surface's own channel ID. */
  readonly channelId: string;
  /** The surface's own sender ID. */
  readonly senderId: string;
  /** The thread or conversation ID. */
  readonly threadId: string;
  readonly content: string;
  readonly attachments: readonly SurfaceAttachment[];
  /** Anything else the surface wants to keep with the message. */
  readonly metadata: Readonly<Record<string, unknown>>;

  constructor(init: SurfaceEnvelopeInit) {
    const missing = (["surfaceType", "channelId", "senderId", "content"] as const).filter(
      (field) => typeof init[field] !== "string",
    );
    if (missing.length > 0) {
      throw new Oz0Error("INVALID_INPUT", `a SurfaceEnvelope needs ${missing.join(", ")} as strings.`, {
        data: { issues: missing.map((path) => ({ path, message: "must be a string" })) },
      });
    }
    this.surfaceType = init.surfaceType;
    this.channelId = init.channelId;
    this.senderId = init.senderId;
    this.threadId = init.threadId ?? "";
    this.content = init.content;
    this.attachments = Object.freeze([...(init.attachments ?? [])]);
    this.metadata = Object.freeze({ ...init.metadata });
    Object.freeze(this);
  }
}

/** The answer an adapter delivers back to the surface. */
export interface SurfaceResponse {
  readonly content: string;
  /** A structured answer, for an agent with an output schema. */
  readonly output?: unknown;
  readonly attachments?: readonly SurfaceAttachment[];
  readonly jobId?: string;
  /**
   * Set when the thread's job waits for a person and the channel has notifications on: what to
   * act on, for a surface that draws controls for it; `content` says the same as text.
   */
  readonly notification?: ChannelNotification;
  /**
   * Set when the envelope carried a command (approve, deny, answer): what became of it.
   * `done: false` when it was refused or changed nothing; `content` says why.
   */
  readonly command?: {
    readonly kind: "approve" | "deny" | "answer";
    readonly done: boolean;
    /** The approval or the job the command named. */
    readonly target: string;
  };
}

/** What a started adapter gets: where to send envelopes, and when to stop. */
export interface SurfaceStartContext {
  /** Hands an envelope to oz0, which starts a job or a chat turn for it. */
  submit(envelope: SurfaceEnvelope): Promise<void>;
  /** Aborted when the host stops the listener. */
  readonly signal: AbortSignal;
  /**
   * Tells the host the listener died after it started (its socket dropped, its poller threw):
   * the host stops it and starts it again after a backoff, as when start() throws.
   */
  fail(error?: unknown): void;
}

/**
 * A delivery surface. `start` begins listening (a socket, a poller) and `stop` ends it;
 * both default to doing nothing for surfaces that only receive webhooks through `ingest`.
 */
export abstract class SurfaceAdapter extends CapabilityContract {
  static readonly contractId: string = "surface";

  abstract readonly surfaceType: string;

  /**
   * Converts a raw surface event into an envelope; over HTTP, `raw` is the verified
   * `ChannelRequest` (headers, body, receivedAt).
   */
  abstract ingest(raw: unknown): SurfaceEnvelope | Promise<SurfaceEnvelope>;

  /**
   * Checks an inbound HTTP request (a `ChannelRequest`) is the surface's own. Left as it is, the
   * adapter receives nothing over HTTP: its endpoint refuses every request.
   */
  verify(_request: ChannelRequest): ChannelVerdict | Promise<ChannelVerdict> {
    return { ok: false, reason: `the ${this.surfaceType} adapter verifies no HTTP requests` };
  }

  /** Sends the agent's response back to where the envelope came from. */
  abstract deliver(envelope: SurfaceEnvelope, response: SurfaceResponse): void | Promise<void>;

  start(_ctx: SurfaceStartContext): void | Promise<void> {}

  stop(): void | Promise<void> {}
}
