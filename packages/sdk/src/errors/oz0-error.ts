// The one error class of oz0: a code from the fixed table, a message that says what was
// wrong and how to fix it, and structured data callers can branch on.
import { ERROR_CODES, type ErrorCode, type ErrorSide } from "./codes.js";

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

  toJSON(): { code: ErrorCode; message: string; data?: Readonly<Record<string, unknown>> } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Turns anything thrown into an Oz0Error, keeping the original as `cause`. */
export function toOz0Error(thrown: unknown): Oz0Error {
  if (thrown instanceof Oz0Error) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new Oz0Error("INTERNAL", message, { cause: thrown });
}

export function isOz0Error(value: unknown, code?: ErrorCode): value is Oz0Error {
  return value instanceof Oz0Error && (code === undefined || value.code === code);
}
