// How an error becomes a job's failure: the platform failure kind its code calls for, with
// the code kept beside the message so callers can branch on either.
import { toOz0Error } from "@oz0/sdk";
import type { JobFailure } from "./events.js";

/** Thrown to end the job with a failure of a given kind, such as invalid_input before the agent starts. */
export class SetupFailure extends Error {
  readonly kind: string;
  readonly code: string | undefined;

  constructor(kind: string, message: string, code?: string) {
    super(message);
    this.name = "SetupFailure";
    this.kind = kind;
    this.code = code;
  }
}

const KIND_BY_CODE: Readonly<Record<string, string>> = {
  TOOL_CLASH: "tool_clash",
  NAME_CLASH: "name_clash",
  UNPLANNED_MODEL_CALL: "unplanned_model_call",
  MODEL_NOT_CONFIGURED: "model_error",
  INVALID_INPUT: "invalid_input",
  POLICY_VIOLATION: "policy_denied",
};

/** The failure for `error`; `fallback` is the kind when its code calls for none in particular. */
export function failureOf(error: unknown, fallback = "internal"): JobFailure {
  if (error instanceof SetupFailure) {
    return error.code === undefined
      ? { kind: error.kind, message: error.message }
      : { kind: error.kind, message: error.message, code: error.code };
  }
  const oz0 = toOz0Error(error);
  return { kind: KIND_BY_CODE[oz0.code] ?? fallback, message: oz0.message, code: oz0.code };
}
