// `tool_loading: lazy`: the model is offered oz.find_tools and oz.call_tool in place of the
// plugin functions' definitions, the same two in every request. find_tools searches only the
// functions the agent may call now; call_tool stands for the function it names, so the loop
// records, checks and runs that function on the one dispatch path, as if the model had called
// it directly: a trace, a policy and an approval see the real function.
import { modelVisibleName } from "@oz0/sdk";
import type { CallableFunction, CallError } from "../tools/index.js";
import { builtinFunction } from "./builtins.js";

/** Why a function may not be called now (a kill switch, a deny rule), or undefined when it may. */
export type Unavailable = (fn: CallableFunction) => Promise<string | undefined>;

const DEFAULT_LIMIT = 10;

/** oz.find_tools over `functions`, offering only those `unavailable` lets through. */
export function findToolsFunction(
  functions: ReadonlyMap<string, CallableFunction>,
  unavailable: Unavailable,
): CallableFunction {
  return {
    ...builtinFunction("find_tools", { failureKinds: [], skills: [], delegates: [] }),
    run: async (args) => findTools(functions, unavailable, String(args.query ?? ""), args.limit),
  };
}

async function findTools(
  functions: ReadonlyMap<string, CallableFunction>,
  unavailable: Unavailable,
  query: string,
  limit: unknown,
): Promise<{ functions: { name: string; address: string; description: string; input_schema: unknown }[] }> {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const scored: { fn: CallableFunction; score: number }[] = [];
  for (const fn of functions.values()) {
    const text = `${fn.modelName} ${fn.address} ${fn.description}`.toLowerCase();
    const score = words.filter((word) => text.includes(word)).length;
    if (words.length > 0 && score === 0) continue;
    if ((await unavailable(fn)) !== undefined) continue;
    scored.push({ fn, score });
  }
  scored.sort((a, b) => b.score - a.score);
  const max = typeof limit === "number" ? limit : DEFAULT_LIMIT;
  return {
    functions: scored.slice(0, max).map(({ fn }) => ({
      name: fn.modelName,
      address: fn.address,
      description: fn.description,
      input_schema: fn.inputSchema,
    })),
  };
}

/** The function a call runs, and its arguments: for oz.call_tool, the function it names. */
export type CallTarget =
  | { readonly fn: CallableFunction; readonly args: unknown }
  | { readonly error: CallError };

/**
 * What calling `fn` with `args` runs: `fn` itself, or for `oz.call_tool` the function it names
 * among the agent's lazily loaded ones (by the name a model sees, or by address).
 */
export function callTarget(
  fn: CallableFunction,
  args: unknown,
  lazy: ReadonlyMap<string, CallableFunction>,
): CallTarget {
  if (fn.plugin !== undefined || fn.function !== "call_tool") return { fn, args };
  const record = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
  const name = typeof record.name === "string" ? record.name : "";
  const target = lazy.get(name) ?? [...lazy.values()].find((entry) => entry.address === name);
  if (target === undefined) {
    return {
      error: {
        code: "NOT_FOUND",
        message:
          `there is no function ${name || "(no name given)"} among the functions you may call; ` +
          `search them with ${modelVisibleName("oz", "find_tools")} and call one by the name it gives`,
      },
    };
  }
  return { fn: target, args: record.args ?? {} };
}
