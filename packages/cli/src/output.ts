// Where the CLI's output goes: text for people, JSON for scripts (`--json`), and errors on
// stderr in the SDK's one error shape, with the code callers branch on. Text passes the draw
// layer's `forTerminal` on its way out, so nothing a plugin wrote can steer the terminal;
// JSON goes out as JSON.stringify wrote it, whose escaping already keeps control characters out.
import type { ErrorShape } from "@oz0/sdk/errors";
import { forTerminal } from "./draw/index.js";

export interface GlobalOptions {
  home?: string;
  tenant: string;
  json?: boolean;
  server?: string;
  apiKeyFile?: string;
}

export class Output {
  json = false;
  options: GlobalOptions = { tenant: "default" };

  readonly #stdout: (text: string) => void;
  readonly #stderr: (text: string) => void;

  constructor(
    stdout: (text: string) => void = (text) => process.stdout.write(text),
    stderr: (text: string) => void = (text) => process.stderr.write(text),
  ) {
    this.#stdout = stdout;
    this.#stderr = stderr;
  }

  configure(options: GlobalOptions): void {
    this.options = options;
    this.json = options.json === true;
  }

  /** Writes text for a person on stdout. */
  stdout(text: string): void {
    this.#stdout(forTerminal(text));
  }

  /** Writes text for a person on stderr. */
  stderr(text: string): void {
    this.#stderr(forTerminal(text));
  }

  /** Writes `data` as JSON on one line, or pretty-printed, on stdout (stderr for warnings). */
  writeJson(data: unknown, options: { readonly pretty?: boolean; readonly stderr?: boolean } = {}): void {
    const text = `${options.pretty === true ? JSON.stringify(data, null, 2) : JSON.stringify(data)}\n`;
    if (options.stderr === true) this.#stderr(text);
    else this.#stdout(text);
  }

  /** Prints `data` as JSON with --json, otherwise the text `human` draws from it. */
  result<T>(data: T, human: (data: T) => string): void {
    if (this.json) this.writeJson(data, { pretty: true });
    else this.stdout(ensureNewline(human(data)));
  }

  /** Prints the SDK's one error shape: as it is with --json, else its message (and stack, in development). */
  error(shape: ErrorShape): void {
    if (this.json) this.writeJson(shape, { stderr: true });
    else
      this.stderr(
        `oz0: ${shape.error.message}\n${shape.error.stack === undefined ? "" : `${shape.error.stack}\n`}`,
      );
  }
}

function ensureNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
