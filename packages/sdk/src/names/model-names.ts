// The names a model sees: `<tool>__<function>`, never the plugin. Providers cap a function
// name's length, so the runtime leaves out a function whose name would not fit.
import { Oz0Error } from "../errors/index.js";

/** The separator between tool ID and function name in a model-visible name. */
export const MODEL_NAME_SEPARATOR = "__";

/** Longest function name each provider format accepts. */
export const MODEL_NAME_LIMITS = {
  openai: 64,
  anthropic: 128,
} as const;
export type ModelNameFormat = keyof typeof MODEL_NAME_LIMITS;

/** The strictest limit, which a node applies when it does not know the format: OpenAI's 64. */
export const MODEL_NAME_LIMIT = MODEL_NAME_LIMITS.openai;

/**
 * The name a model sees for a function.
 * @example modelVisibleName("oz0_github", "get_pull_request") // "oz0_github__get_pull_request"
 */
export function modelVisibleName(tool: string, fn: string): string {
  return `${tool}${MODEL_NAME_SEPARATOR}${fn}`;
}

/** Splits a model-visible name back into tool and function; `undefined` when it has no `__`. */
export function parseModelVisibleName(name: string): { tool: string; function: string } | undefined {
  const at = name.indexOf(MODEL_NAME_SEPARATOR);
  if (at <= 0 || at + MODEL_NAME_SEPARATOR.length >= name.length) return undefined;
  return { tool: name.slice(0, at), function: name.slice(at + MODEL_NAME_SEPARATOR.length) };
}

/** Whether a model in `format` would accept the model-visible name of this function. */
export function fitsModelNameLimit(tool: string, fn: string, format: ModelNameFormat = "openai"): boolean {
  return modelVisibleName(tool, fn).length <= MODEL_NAME_LIMITS[format];
}

/** Throws `MODEL_NAME_TOO_LONG` when the model-visible name is over the format's limit. */
export function assertModelNameFits(tool: string, fn: string, format: ModelNameFormat = "openai"): void {
  const name = modelVisibleName(tool, fn);
  const limit = MODEL_NAME_LIMITS[format];
  if (name.length > limit) {
    throw new Oz0Error(
      "MODEL_NAME_TOO_LONG",
      `a model would see function ${tool}.${fn} as '${name}', ${name.length} characters; ${format} accepts at most ${limit}. Shorten the tool ID or the function name.`,
      { data: { name, length: name.length, limit } },
    );
  }
}
