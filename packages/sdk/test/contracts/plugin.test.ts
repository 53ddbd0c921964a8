import { describe, expect, test } from "vitest";
import {
  GovernanceContract,
  inferPluginId,
  isPluginClass,
  MemoryContract,
  type PluginOptions,
  plugin,
  pluginIdName,
  pluginInfo,
  ToolContract,
  withContracts,
} from "../../src/contracts/index.js";
import { isOz0Error, type Oz0Error } from "../../src/errors/index.js";

// These tests call `plugin` as a function, the form plain JavaScript uses; the `@plugin`
// syntax itself is tested in decorators.test.ts.

function thrown(run: () => unknown): Oz0Error {
  try {
    run();
  } catch (error) {
    return error as Oz0Error;
  }
  throw new Error("expected a throw");
}

abstract class Fn extends ToolContract {
  getName() {
    return "fn";
  }
  getDescription() {
    return "A function.";
  }
  override getParametersSchema() {
    return { type: "object" as const };
  }
  execute() {
    return null;
  }
}

describe("plugin ID inference", () => {
  test.each([
    ["DateTimeTool", "date_time@v1"],
    ["MyHTTPClientPlugin", "my_http_client@v1"],
    ["BudgetGovernance", "budget_governance@v1"],
    ["SimplePlugin", "simple@v1"],
    ["GreeterTool", "greeter@v1"],
  ])("turns class %s into %s", (className, pluginId) => {
    expect(inferPluginId(className)).toBe(pluginId);
  });

  test("keeps a class named just Tool or Plugin, which has nothing left to strip", () => {
    expect(inferPluginId("Tool")).toBe("tool@v1");
    expect(inferPluginId("Plugin")).toBe("plugin@v1");
  });

  test("strips only one suffix", () => {
    expect(inferPluginId("ToolPlugin")).toBe("tool@v1");
  });

  test("gives the name part of a plugin ID", () => {
    expect(pluginIdName("date_time@v1")).toBe("date_time");
  });
});

describe("plugin", () => {
  test("infers everything for a bare class, as the spec's GreeterTool", () => {
    const GreeterTool = plugin(class GreeterTool extends Fn {});
    expect(GreeterTool.pluginId).toBe("greeter@v1");
    expect(GreeterTool.implements).toEqual(["tool"]);
    expect(GreeterTool.requires).toEqual([]);
    expect(GreeterTool.governedBy).toEqual([]);
    expect(isPluginClass(GreeterTool)).toBe(true);
  });

  test("takes pluginId, requires and governedBy as options", () => {
    const RateLimitedTool = plugin({
      pluginId: "limited@v2",
      requires: ["recorder"],
      governedBy: ["budget"],
    })(class RateLimitedTool extends Fn {});
    expect(pluginInfo(RateLimitedTool)).toEqual({
      className: "RateLimitedTool",
      pluginId: "limited@v2",
      implements: ["tool"],
      requires: ["recorder"],
      governedBy: ["budget"],
    });
  });

  test("lets a static pluginId win over the decorator's option", () => {
    const Custom = plugin({ pluginId: "from_option@v1" })(
      class Custom extends Fn {
        static override pluginId = "from_class@v3";
      },
    );
    expect(Custom.pluginId).toBe("from_class@v3");
  });

  test("collects tool and memory from a class composed of ToolContract and MemoryContract", () => {
    class SmartMemoryTool extends withContracts(ToolContract, MemoryContract) {
      getName() {
        return "remember";
      }
      getDescription() {
        return "Remembers.";
      }
      execute() {
        return null;
      }
      store() {
        return { key: "k", content: "c", metadata: {} };
      }
      get() {
        return undefined;
      }
      search() {
        return [];
      }
    }
    plugin(SmartMemoryTool);
    expect(SmartMemoryTool.implements).toEqual(["tool", "memory"]);
    const instance = new SmartMemoryTool();
    expect(instance).toBeInstanceOf(ToolContract);
    expect(instance).toBeInstanceOf(MemoryContract);
    expect(instance).not.toBeInstanceOf(GovernanceContract);
  });

  test("copies a mixed-in contract's methods onto the composite", () => {
    abstract class Greets extends GovernanceContract {
      static contractId = "greets";
      greet() {
        return "hello";
      }
    }
    class Both extends withContracts(Fn, Greets) {}
    expect(new Both().greet()).toBe("hello");
    expect(pluginInfo(Both).implements).toEqual(["tool", "greets"]);
  });

  test("collects a custom governance contract's own contractId", () => {
    class RateLimitGovernance extends GovernanceContract {
      static contractId = "rate_limit";
    }
    expect(pluginInfo(RateLimitGovernance).implements).toEqual(["rate_limit"]);
  });

  test("infers for an undecorated class without changing it", () => {
    class UndecoratedTool extends Fn {}
    expect(pluginInfo(UndecoratedTool).pluginId).toBe("undecorated@v1");
    expect(isPluginClass(UndecoratedTool)).toBe(false);
    expect(Object.hasOwn(UndecoratedTool, "pluginId")).toBe(false);
  });

  test("gives a subclass of a decorated class its own inferred ID, not its parent's", () => {
    const ParentTool = plugin(class ParentTool extends Fn {});
    class ChildTool extends ParentTool {}
    expect(pluginInfo(ChildTool).pluginId).toBe("child@v1");
  });

  test("refuses a plugin ID that is not <snake_name>@v<major>", () => {
    const error = thrown(() =>
      plugin(
        class Bad extends Fn {
          static override pluginId = "Bad-Name";
        },
      ),
    );
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("such as date_time@v1");
  });

  test("refuses an anonymous class without a pluginId", () => {
    const anonymous = (() => class extends Fn {})();
    Object.defineProperty(anonymous, "name", { value: "" });
    expect(
      isOz0Error(
        thrown(() => plugin(anonymous)),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
  });

  test("refuses a class that is not a contract", () => {
    const error = thrown(() => plugin(class NotAContract {} as never));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("extend ToolContract");
  });

  test("refuses an option it does not know, naming it", () => {
    const error = thrown(() => plugin({ governed_by: ["budget"] } as never));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect(error.message).toContain("not governed_by");
  });

  test("refuses requires that is not a list of contract IDs", () => {
    expect(
      isOz0Error(
        thrown(() => plugin({ requires: "recorder" } as unknown as PluginOptions)(class XTool extends Fn {})),
        "INVALID_PLUGIN",
      ),
    ).toBe(true);
  });
});
