// The CLI's own refusals of what it was given: Oz0Errors of code INVALID_INPUT, naming the
// option or argument at fault. The SDK is loaded when one is made, not when the CLI starts.

/**
 * An INVALID_INPUT error whose one issue is at `path` (the option or argument).
 * @example throw await invalidInput("--args is not JSON; pass an object", "args", "not JSON");
 */
export async function invalidInput(message: string, path: string, problem: string): Promise<Error> {
  const { Oz0Error } = await import("@oz0/sdk");
  return new Oz0Error("INVALID_INPUT", message, { data: { issues: [{ path, message: problem }] } });
}
