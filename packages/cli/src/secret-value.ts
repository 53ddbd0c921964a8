// A secret's value for a command that stores one (`oz0 mcp secret set`, `oz0 remote secret
// set`): from an environment variable of oz0's (--from-env), else piped to stdin. A terminal
// would echo it, so one is refused.
import { invalidInput } from "./errors.js";

/**
 * The value, without stdin's final newline.
 * @example await secretValue(undefined, "oz0 remote secret set NAME")
 */
export async function secretValue(fromEnv: string | undefined, command: string): Promise<string> {
  if (fromEnv !== undefined) {
    const value = process.env[fromEnv];
    if (value === undefined || value === "") {
      throw await invalidInput(
        `--from-env ${fromEnv}: oz0's environment has no ${fromEnv}; export it first, or pipe the value to stdin`,
        "from-env",
        "not set",
      );
    }
    return value;
  }
  if (process.stdin.isTTY) {
    throw await invalidInput(
      `pipe the secret's value to stdin (printf %s "$TOKEN" | ${command}), or use --from-env VARIABLE`,
      "value",
      "stdin is a terminal",
    );
  }
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  const value = text.replace(/\r?\n$/, "");
  if (value === "")
    throw await invalidInput("stdin was empty; pipe the secret's value to it", "value", "empty");
  return value;
}
