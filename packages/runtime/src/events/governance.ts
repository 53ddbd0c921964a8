// The governance events the hook bus records in a job's history, with the spec's field names
// (plugin-and-tool-authoring §7, "Governance Events"): a refusal, a technical failure of a
// handler, and the silent allow made visible.

export interface GovernanceEventData {
  /** Every handler of a blocking hook point ran and none refused: the action goes ahead. */
  governance_checked: {
    readonly hook: string;
    /** Handlers that passed; an optional handler that failed (see `hook_error`) is not counted. */
    readonly checks_passed: number;
    readonly outcome: "allowed";
  };
  /** A handler refused with PolicyViolation: the action does not happen. */
  governance_denied: {
    readonly hook: string;
    /** The plugin whose handler refused. */
    readonly plugin: string;
    readonly contract_id: string;
    readonly reason: string;
    readonly details: Readonly<Record<string, unknown>>;
    /** The registration the handler belongs to (a hook spec, lifecycle spec or contract). */
    readonly handler: string;
  };
  /** A handler failed with anything but PolicyViolation. */
  hook_error: {
    readonly hook: string;
    readonly plugin: string;
    readonly error: string;
    readonly handler: string;
    /** A required handler's failure stops the action; an optional one's is recorded and the chain goes on. */
    readonly required: boolean;
  };
}

export type GovernanceEventKind = keyof GovernanceEventData;

export type GovernanceEvent = {
  [K in GovernanceEventKind]: { readonly kind: K; readonly data: GovernanceEventData[K] };
}[GovernanceEventKind];

/** Where the bus puts the events it records: a job's pending writes. */
export type GovernanceSink = (event: GovernanceEvent) => void;
