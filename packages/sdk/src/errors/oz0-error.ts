// The one error class of oz0: a code from the fixed table, a message that says what was
// wrong and how to fix it, and structured data callers can branch on.
import { ERROR_CODES, type ErrorCode, type ErrorSide } from "./codes.js";

/**
 * The brand every Oz0Error carries, on a registry symbol so that it is the same key in every
 * copy of the SDK: a plugin that bundles its own copy throws errors whose class is not this one.
 */
export const OZ0_ERROR_BRAND: unique symbol = Symbol.for("oz0.error") as never;

export class Oz0Error extends Error {
  readonly code: ErrorCode;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { data?: Record<string, unknown>; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = options?.data;
  }

  /** `user` for a caller's mistake, `system` for a platform fault. */
  get side(): ErrorSide {
    return ERROR_CODES[this.code].side;
  }

  /** The HTTP status a server answers this error with. */
  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  /** Whether the same request, sent again unchanged, may succeed later. */
  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  toJSON(): { code: ErrorCode; message: string; data?: Readonly<Record<string, unknown>> } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

// On the prototype, not each instance: subclasses (PolicyViolation) carry it too, and it stays
// out of JSON and of a test's deep equality.
Object.defineProperty(Oz0Error.prototype, OZ0_ERROR_BRAND, { value: true });

/**
 * Turns anything thrown into an Oz0Error, keeping the original as `cause`. An Oz0Error from
 * another copy of the SDK keeps its code, message, data and stack, as one of this copy.
 */
export function toOz0Error(thrown: unknown): Oz0Error {
  if (thrown instanceof Oz0Error) return thrown;
  if (isOz0Error(thrown)) {
    const copy = new Oz0Error(thrown.code, thrown.message, {
      data: isRecord(thrown.data) ? thrown.data : undefined,
      cause: thrown,
    });
    if (typeof thrown.stack === "string") copy.stack = thrown.stack;
    return copy;
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new Oz0Error("INTERNAL", message, { cause: thrown });
}

/**
 * Whether a value is an Oz0Error (of the given code when one is given), also one from another
 * copy of the SDK: told by the brand, or by the name a copy from before the brand gives it,
 * with a message and a code of this table.
 */
export function isOz0Error(value: unknown, code?: ErrorCode): value is Oz0Error {
  if (value instanceof Oz0Error) return code === undefined || value.code === code;
  if (typeof value !== "object" || value === null) return false;
  const found = value as { [OZ0_ERROR_BRAND]?: unknown; name?: unknown; code?: unknown; message?: unknown };
  if (found[OZ0_ERROR_BRAND] !== true && found.name !== "Oz0Error") return false;
  if (typeof found.message !== "string") return false;
  if (typeof found.code !== "string" || !Object.hasOwn(ERROR_CODES, found.code)) return false;
  return code === undefined || found.code === code;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
