// What every model call goes through, whichever provider serves it: a request offers at most
// 128 functions, each reply's cost is worked out from the tenant's price table, and what the
// resolver wants the job to know (the default alias ran on the offline model, no price is
// set) is said once, with the job's first reply.
import { Oz0Error } from "@oz0/sdk";
import type { Price } from "./settings.js";
import type { LanguageModel, ModelUsage } from "./types.js";

/** The most functions one model request may offer: OpenAI's limit, the lowest of the formats. */
export const MAX_FUNCTIONS_PER_REQUEST = 128;

export interface Metering {
  /** The price of this model; without one, no cost is recorded. */
  readonly price?: Price | undefined;
  /** Said once, as model_warning events, with the job's first model reply. */
  readonly notices?: readonly string[];
}

/** `model` with the function limit checked, costs added and notices said. */
export function metered(model: LanguageModel, metering: Metering): LanguageModel {
  const { price, notices = [] } = metering;
  return {
    ...model,
    generate: async (request) => {
      if (request.functions.length > MAX_FUNCTIONS_PER_REQUEST)
        throw tooManyFunctions(request.functions.length);
      const reply = await model.generate(request);
      const warnings = [...(request.step === 1 ? notices : []), ...(reply.warnings ?? [])];
      return {
        ...reply,
        ...(price === undefined ? {} : { costUsd: costOf(reply.usage, price) }),
        ...(warnings.length === 0 ? {} : { warnings }),
      };
    },
  };
}

/**
 * What a call cost in USD: prompt tokens read from the cache at the cached price, the rest of
 * the prompt at the input price, the answer at the output price.
 * @example costOf({ inputTokens: 1000, outputTokens: 100 }, { input: 2, output: 8 }) // 0.0028
 */
export function costOf(usage: ModelUsage, price: Price): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const usd =
    ((usage.inputTokens - cached) * price.input +
      cached * (price.cached ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000;
  // Float sums of small prices leave noise in the last digits; a nano-dollar is precise enough.
  return Math.round(usd * 1e9) / 1e9;
}

function tooManyFunctions(count: number): Oz0Error {
  return new Oz0Error(
    "TOO_MANY_TOOLS",
    `this model request would offer ${count} functions, and providers accept at most ${MAX_FUNCTIONS_PER_REQUEST} ` +
      "in one request. Set tool_loading: lazy on the agent (the model then gets oz.find_tools and oz.call_tool " +
      "in place of the functions' definitions), or list fewer tools.",
    { data: { count, limit: MAX_FUNCTIONS_PER_REQUEST } },
  );
}
