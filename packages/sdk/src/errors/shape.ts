// The public error shape every surface prints (the CLI's stderr, the HTTP API's body): one
// function builds it from anything thrown, so the two never disagree on a field.
import type { ErrorCode, ErrorSide } from "./codes.js";
import { toOz0Error } from "./oz0-error.js";

export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  /** What the code's row says `data` holds; absent when the error has none. */
  readonly data?: Readonly<Record<string, unknown>>;
  readonly side: ErrorSide;
  readonly status: number;
  readonly retryable: boolean;
  /** Only in development (`OZ0_DEV=1` or `NODE_ENV=development`): a stack names files and lines. */
  readonly stack?: string;
}

export interface ErrorShape {
  readonly error: ErrorBody;
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * `{ error: { code, message, data, side, status, retryable } }` for anything thrown, through
 * `toOz0Error`. The stack, with its causes', is added only in development: outside it, paths
 * and lines of the installation are nobody's business.
 */
export function errorShape(thrown: unknown, env: Environment = processEnv()): ErrorShape {
  const error = toOz0Error(thrown);
  const body: ErrorBody = {
    code: error.code,
    message: error.message,
    ...(error.data === undefined ? {} : { data: error.data }),
    side: error.side,
    status: error.status,
    retryable: error.retryable,
  };
  if (!isDevelopment(env)) return { error: body };
  return { error: { ...body, stack: stackOf(error) } };
}

/** Development is `OZ0_DEV=1` or `NODE_ENV=development`; anything else is production. */
function isDevelopment(env: Environment): boolean {
  return env.OZ0_DEV === "1" || env.NODE_ENV === "development";
}

/** The error's stack, then each cause's, as Node prints them; causes that loop stop once seen. */
function stackOf(error: Error): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const stack = current.stack ?? `${current.name}: ${current.message}`;
    // A copy of another SDK's error carries that error's stack and has it as its cause.
    if (parts.at(-1) !== stack) parts.push(stack);
    current = current.cause;
  }
  return parts.join("\ncaused by: ");
}

function processEnv(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
}
