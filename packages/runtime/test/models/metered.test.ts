import { isOz0Error, type Oz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import {
  costOf,
  MAX_FUNCTIONS_PER_REQUEST,
  type ModelFunction,
  metered,
  testModel,
} from "../../src/models/index.js";
import { context, request, resolverFor } from "./helpers.js";

function functions(count: number): ModelFunction[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tools__fn_${index}`,
    description: "A function.",
    inputSchema: { type: "object", properties: {} },
  }));
}

describe("the function limit of one request", () => {
  it("offers 128 functions in one request", async () => {
    const model = metered(testModel(), {});
    const reply = await model.generate(request({ functions: functions(128) }));
    expect(reply.calls).toHaveLength(1);
  });

  it("refuses a 129th with a clear error that suggests tool_loading: lazy", async () => {
    const error = (await metered(testModel(), {})
      .generate(request({ functions: functions(MAX_FUNCTIONS_PER_REQUEST + 1) }))
      .catch((thrown: unknown) => thrown)) as Oz0Error;
    expect(isOz0Error(error, "TOO_MANY_TOOLS")).toBe(true);
    expect(error.message).toContain("would offer 129 functions, and providers accept at most 128");
    expect(error.message).toContain("Set tool_loading: lazy on the agent");
    expect(error.data).toEqual({ count: 129, limit: 128 });
  });
});

describe("costs", () => {
  it("prices cached prompt tokens at the cached price and the rest at the input price", () => {
    expect(costOf({ inputTokens: 1000, outputTokens: 100 }, { input: 2, output: 8 })).toBe(0.0028);
    expect(
      costOf(
        { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 800 },
        { input: 2, output: 8, cached: 0.5 },
      ),
    ).toBe(0.0016);
  });

  it("prices cached tokens at the input price when no cached price is set", () => {
    expect(
      costOf({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 800 }, { input: 2, output: 8 }),
    ).toBe(0.002);
  });

  it("adds the cost to every reply of a priced model", async () => {
    const model = metered(testModel(), { price: { input: 1_000_000, output: 0 } });
    const reply = await model.generate(request({ estimatedInputTokens: 3 }));
    expect(reply.costUsd).toBe(3);
  });

  it("takes a provider's price for every model of it from <provider>:*", async () => {
    const model = await resolverFor()(
      { use: "test" },
      context({ "price.test:*": { input: 1_000_000, output: 0 } }),
    );
    expect((await model.generate(request({ estimatedInputTokens: 5 }))).costUsd).toBe(5);
  });

  it("records the offline test model's calls as free when no price is set", async () => {
    const model = await resolverFor()({ use: "test" }, context());
    expect((await model.generate(request())).costUsd).toBe(0);
  });
});

describe("notices", () => {
  it("are said with the job's first reply only", async () => {
    const model = metered(testModel(), { notices: ["once"] });
    expect((await model.generate(request({ step: 1 }))).warnings).toEqual(["once"]);
    expect((await model.generate(request({ step: 2 }))).warnings).toBeUndefined();
  });

  it("say that the default alias fell back to the offline model, and only for the default alias", async () => {
    const fallback = await resolverFor()({ use: "default" }, context());
    expect((await fallback.generate(request())).warnings).toEqual([
      "model alias default is not set in tenant default, so this job runs on the offline test model; oz0 model set default <provider>:<model> chooses a real one",
    ]);
    const chosen = await resolverFor()({ use: "test" }, context());
    expect((await chosen.generate(request())).warnings).toBeUndefined();
  });
});
