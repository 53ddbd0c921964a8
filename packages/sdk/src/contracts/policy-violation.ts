// PolicyViolation: how a governance handler refuses an action. The hook bus tells it apart
// from a technical failure: a PolicyViolation becomes `governance_denied`, anything else
// `hook_error`.
import { Oz0Error } from "../errors/index.js";

export interface PolicyViolationInit {
  /** The governance contract that refused (`budget`, `rate_limit`). */
  readonly contractId: string;
  /** Why, in words a person reads in the trace. */
  readonly reason: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * @example
 * throw new PolicyViolation("rate_limit", "Rate limit exceeded: 60/min", { current_count: 60 });
 * throw new PolicyViolation({ contractId: "budget", reason: "Token ceiling exceeded" });
 */
export class PolicyViolation extends Oz0Error {
  readonly contractId: string;
  readonly reason: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(init: PolicyViolationInit);
  constructor(contractId: string, reason: string, details?: Readonly<Record<string, unknown>>);
  constructor(
    first: string | PolicyViolationInit,
    reason?: string,
    details?: Readonly<Record<string, unknown>>,
  ) {
    const init: PolicyViolationInit =
      typeof first === "string" ? { contractId: first, reason: reason ?? "", details } : first;
    const fields = {
      contractId: init.contractId,
      reason: init.reason,
      details: Object.freeze({ ...init.details }),
    };
    super("POLICY_VIOLATION", `${fields.contractId} refused: ${fields.reason}`, { data: fields });
    this.contractId = fields.contractId;
    this.reason = fields.reason;
    this.details = fields.details;
  }
}
