// Where the CLI's output goes: text for people, JSON for scripts (`--json`), and errors on
// stderr in the same shape either way, with the code callers branch on.
import { toOz0Error } from "@oz0/sdk";

export interface GlobalOptions {
  home?: string;
  tenant: string;
  json?: boolean;
  server?: string;
}

export interface ErrorShape {
  code: string;
  message: string;
  data?: unknown;
}

/** The one CLI/HTTP error shape; stacks stay out of it. */
export function errorShape(thrown: unknown): ErrorShape {
  const error = toOz0Error(thrown);
  return error.data === undefined
    ? { code: error.code, message: error.message }
    : { code: error.code, message: error.message, data: error.data };
}

export class Output {
  json = false;
  options: GlobalOptions = { tenant: "default" };

  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;

  constructor(
    stdout: (text: string) => void = (text) => process.stdout.write(text),
    stderr: (text: string) => void = (text) => process.stderr.write(text),
  ) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  configure(options: GlobalOptions): void {
    this.options = options;
    this.json = options.json === true;
  }

  /** Prints `data` as JSON with --json, otherwise the text `human` draws from it. */
  result<T>(data: T, human: (data: T) => string): void {
    this.stdout(this.json ? `${JSON.stringify(data, null, 2)}\n` : ensureNewline(human(data)));
  }

  error(shape: ErrorShape): void {
    this.stderr(this.json ? `${JSON.stringify({ error: shape })}\n` : `oz0: ${shape.message}\n`);
  }
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
