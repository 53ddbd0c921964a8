// ContextPart: one piece of a model's context, with an ID that follows it into the
// `context_part_contributed` events, so every token in a prompt can be traced to its source.

export interface ContextPartInit {
  readonly content: string;
  /** Where it came from: `memory:episodic`, `skills`, `instructions`, a plugin … */
  readonly source: string;
  /** A stable ID of the section within its source (`memory/episode-42`). */
  readonly sectionId?: string;
  /** How it got in (`memory_read`, `skill_index`). */
  readonly mechanism?: string;
  /** What asked for it, and what kind of thing that was. */
  readonly cause?: string;
  readonly causeType?: string;
  /** Left out, about one token per four characters. */
  readonly tokenEstimate?: number;
}

export class ContextPart {
  /** A UUID v4, new for every part. */
  readonly partId: string;
  readonly content: string;
  readonly source: string;
  readonly sectionId: string | undefined;
  readonly mechanism: string | undefined;
  readonly cause: string | undefined;
  readonly causeType: string | undefined;
  readonly tokenEstimate: number;

  constructor(init: ContextPartInit) {
    this.partId = crypto.randomUUID();
    this.content = init.content;
    this.source = init.source;
    this.sectionId = init.sectionId;
    this.mechanism = init.mechanism;
    this.cause = init.cause;
    this.causeType = init.causeType;
    this.tokenEstimate = init.tokenEstimate ?? Math.ceil(init.content.length / 4);
    Object.freeze(this);
  }

  /**
   * The part as it appears in a `context_part_contributed` event: the event's wire names
   * (snake_case), without the content itself, which stays out of the event stream.
   */
  toObservabilityDict(): Record<string, string | number> {
    const dict: Record<string, string | number> = {
      part_id: this.partId,
      source: this.source,
      token_estimate: this.tokenEstimate,
    };
    if (this.sectionId !== undefined) dict.section_id = this.sectionId;
    if (this.mechanism !== undefined) dict.mechanism = this.mechanism;
    if (this.cause !== undefined) dict.cause = this.cause;
    if (this.causeType !== undefined) dict.cause_type = this.causeType;
    return dict;
  }
}
