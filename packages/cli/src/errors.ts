// The CLI's own refusals of what it was given: Oz0Errors of code INVALID_INPUT, naming the
// option or argument at fault. The SDK is loaded when one is made, not when the CLI starts.
import { readFile } from "node:fs/promises";

/**
 * An INVALID_INPUT error whose one issue is at `path` (the option or argument).
 * @example throw await invalidInput("--args is not JSON; pass an object", "args", "not JSON");
 */
export async function invalidInput(message: string, path: string, problem: string): Promise<Error> {
  const { Oz0Error } = await import("@oz0/sdk");
  return new Oz0Error("INVALID_INPUT", message, { data: { issues: [{ path, message: problem }] } });
}

/**
 * The text of the file an option names, or INVALID_INPUT saying why it cannot be read (`hint`
 * follows, saying what to give instead).
 */
export async function readOptionFile(
  file: string,
  option: { readonly said: string; readonly issue: string; readonly hint?: string },
): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES"
            ? "oz0 may not read it"
            : (error as Error).message;
    const hint = option.hint === undefined ? "" : `; ${option.hint}`;
    throw await invalidInput(`${option.said} ${file}: ${why}${hint}`, option.issue, "cannot be read");
  }
}
