import { describe, expect, test } from "vitest";
import { isOz0Error, type Oz0Error } from "../../src/errors/index.js";
import {
  checkHookHandlers,
  type HookHandlerMethods,
  type HookPayload,
  handlerMethodNames,
  hookHandlersOf,
} from "../../src/hooks/index.js";

function thrown(run: () => unknown): Oz0Error {
  try {
    run();
  } catch (error) {
    return error as Oz0Error;
  }
  throw new Error("expected a throw");
}

describe("handler method names", () => {
  test("name a handler on_<hook>, as the spec's on_pre_llm_call", () => {
    expect(handlerMethodNames("pre_llm_call")).toEqual({ snake: "on_pre_llm_call", camel: "onPreLlmCall" });
  });

  test("keep a hook name that already starts with on_, so on_error is not on_on_error", () => {
    expect(handlerMethodNames("on_error")).toEqual({ snake: "on_error", camel: "onError" });
    expect(handlerMethodNames("on_pre_checkpoint")).toEqual({
      snake: "on_pre_checkpoint",
      camel: "onPreCheckpoint",
    });
  });
});

describe("hookHandlersOf", () => {
  test("finds on_<hook> methods through the class chain, bound to the object", () => {
    class Base {
      seen: string[] = [];
      on_pre_llm_call(payload: HookPayload<"pre_llm_call">) {
        this.seen.push(payload.model);
      }
    }
    class Derived extends Base implements HookHandlerMethods {
      on_error() {}
    }
    const object = new Derived();
    const handlers = hookHandlersOf(object, "Derived");
    expect(Object.keys(handlers).sort()).toEqual(["on_error", "pre_llm_call"]);
    handlers.pre_llm_call?.({
      hook: "pre_llm_call",
      tenant: "t",
      step: 1,
      model: "test:x",
      messages: [],
      tools: [],
      settings: {},
    });
    expect(object.seen).toEqual(["test:x"]);
  });

  test("accepts camelCase handler methods too", () => {
    const handlers = hookHandlersOf(
      new (class {
        onPreToolCall() {}
      })(),
      "Camel",
    );
    expect(Object.keys(handlers)).toEqual(["pre_tool_call"]);
  });

  test("refuses a handler-like method that names no hook, with a suggestion", () => {
    const error = thrown(() =>
      hookHandlersOf(
        new (class {
          on_pre_llm_cal() {}
        })(),
        "Typo",
      ),
    );
    expect(isOz0Error(error, "UNKNOWN_HOOK")).toBe(true);
    expect(error.message).toContain("Did you mean 'on_pre_llm_call'?");
  });

  test("refuses a hook handled under both spellings", () => {
    const error = thrown(() =>
      hookHandlersOf(
        new (class {
          on_pre_tool_call() {}
          onPreToolCall() {}
        })(),
        "Twice",
      ),
    );
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("as 'on_pre_tool_call' and as 'onPreToolCall'");
  });

  test("ignores ordinary methods", () => {
    expect(
      hookHandlersOf(
        new (class {
          onMessage() {}
          execute() {}
        })(),
        "Plain",
      ),
    ).toEqual({});
  });
});

describe("checkHookHandlers", () => {
  test("accepts handlers keyed by hook name", () => {
    const handlers = { pre_tool_call: () => undefined };
    expect(checkHookHandlers(handlers, "hook 'audit'")).toBe(handlers);
  });

  test("refuses an unknown hook name with UNKNOWN_HOOK", () => {
    expect(
      isOz0Error(
        thrown(() => checkHookHandlers({ pre_toolcall: () => {} }, "h")),
        "UNKNOWN_HOOK",
      ),
    ).toBe(true);
  });

  test("refuses a handler that is not a function", () => {
    expect(
      isOz0Error(
        thrown(() => checkHookHandlers({ on_error: 1 }, "h")),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
    expect(
      isOz0Error(
        thrown(() => checkHookHandlers([], "h")),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
  });
});
