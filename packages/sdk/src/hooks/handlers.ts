// Hook handlers written as methods of a contract class. The specification names them
// `on_<hook>` (`on_pre_llm_call`); TypeScript authors may write the camelCase form
// (`onPreLlmCall`) instead. A hook whose name already starts with `on_` keeps it
// (`on_error`, camelCase `onError`), so no handler is ever called `on_on_error`.
import { Oz0Error } from "../errors/index.js";
import { closestWord, withArticle } from "../text/index.js";
import { HOOK_NAMES, type HookName, hookPoint } from "./catalogue.js";
import type { HookHandlers, HookPayload, HookResult } from "./payloads.js";

/** The spec's method name for a hook's handler. */
export type HandlerMethodName<H extends HookName> = H extends `on_${string}` ? H : `on_${H}`;

/**
 * Optional handler methods, one per hook: `implements HookHandlerMethods` types them. A
 * method with no return statement is typed `void`, so methods may return void as well.
 */
export type HookHandlerMethods = {
  [H in HookName as HandlerMethodName<H>]?: (
    payload: HookPayload<H>,
    // biome-ignore lint/suspicious/noConfusingVoidType: a handler method without a return statement is typed void
  ) => HookResult<H> | void | Promise<HookResult<H> | void>;
};

/** The two method names a handler of `hook` may have. */
export function handlerMethodNames(hook: HookName): { snake: string; camel: string } {
  const snake = hook.startsWith("on_") ? hook : `on_${hook}`;
  const camel = snake.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  return { snake, camel };
}

const SNAKE_METHODS: readonly string[] = HOOK_NAMES.map((hook) => handlerMethodNames(hook).snake);

/**
 * The hook handlers an object defines as methods, bound to it. A method spelled like a
 * handler (`on_…`) that names no hook is refused with `UNKNOWN_HOOK`, so a typo fails at
 * install instead of never running; so is a hook handled under both spellings.
 */
export function hookHandlersOf(target: object, owner: string): HookHandlers {
  const methods = methodNames(target);
  for (const method of methods) {
    if (method.startsWith("on_") && !SNAKE_METHODS.includes(method)) {
      const suggestion = closestWord(method, SNAKE_METHODS);
      const hint = suggestion === undefined ? "" : ` Did you mean '${suggestion}'?`;
      throw new Oz0Error(
        "UNKNOWN_HOOK",
        `${owner} defines method '${method}', which looks like a hook handler but names no hook point of oz0.${hint} Rename it, or see HOOK_POINTS for every hook.`,
        { data: suggestion === undefined ? { hook: method } : { hook: method, suggestion } },
      );
    }
  }
  const handlers: Record<string, unknown> = {};
  const record = target as Record<string, unknown>;
  for (const hook of HOOK_NAMES) {
    const { snake, camel } = handlerMethodNames(hook);
    const found = [snake, camel].filter((name) => methods.has(name) && typeof record[name] === "function");
    if (found.length === 2) {
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `${owner} handles hook '${hook}' twice, as '${snake}' and as '${camel}'. Keep one of the two methods.`,
        { data: { plugin: owner, detail: `hook ${hook} handled twice` } },
      );
    }
    const name = found[0];
    if (name !== undefined) handlers[hook] = (record[name] as (payload: unknown) => unknown).bind(target);
  }
  return handlers as HookHandlers;
}

/**
 * Checks handlers by hook name, as a HookSpec's `build` returns them: every key must be a
 * hook point (`UNKNOWN_HOOK` with a suggestion otherwise) and every value a function.
 */
export function checkHookHandlers(handlers: unknown, owner: string): HookHandlers {
  if (typeof handlers !== "object" || handlers === null || Array.isArray(handlers)) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `${owner} must build an object of handlers by hook name, such as { pre_tool_call(payload) { … } }.`,
      { data: { plugin: owner, detail: "hook handlers are not an object" } },
    );
  }
  for (const [hook, handler] of Object.entries(handlers)) {
    hookPoint(hook);
    if (typeof handler !== "function") {
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `${owner} gives hook '${hook}' ${withArticle(typeof handler)}; a handler is a function.`,
        {
          data: { plugin: owner, detail: `handler of ${hook} is not a function` },
        },
      );
    }
  }
  return handlers as HookHandlers;
}

/** Names of the methods and function fields of an object and its classes, below Object. */
function methodNames(target: object): Set<string> {
  const names = new Set<string>(Object.getOwnPropertyNames(target));
  for (let proto = Object.getPrototypeOf(target); proto !== null && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
    proto = Object.getPrototypeOf(proto);
  }
  names.delete("constructor");
  return names;
}
