import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { type ModelContext, modelResolver } from "../../src/models/index.js";
import { fixture } from "../jobs/dir-source.js";

function context(settings: Record<string, string> = {}): ModelContext {
  return {
    tenant: "default",
    pluginDir: fixture("helpdesk"),
    setting: async (key) => settings[key],
  };
}

describe("model resolution", () => {
  const resolve = modelResolver();

  it("falls back to the test provider for the default alias when nothing is configured", async () => {
    expect((await resolve({ use: "default" }, context())).id).toBe("test:auto");
  });

  it("follows the default alias to what the tenant set", async () => {
    const model = await resolve({ use: "default" }, context({ "model.default": "test:auto" }));
    expect(model.id).toBe("test:auto");
  });

  it("loads a script from the plugin for model: { use: test, script }", async () => {
    const model = await resolve({ use: "test", script: "scripts/triage.yaml" }, context());
    expect(model.id).toBe("test:scripts/triage.yaml");
  });

  it("refuses an alias nobody set, saying how to set it", async () => {
    const error = await resolve({ use: "fast" }, context()).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
    expect((error as Error).message).toContain("oz0 model set fast <provider>:<model>");
  });

  it("refuses a provider this oz0 does not have", async () => {
    const error = await resolve({ use: "fast" }, context({ "model.fast": "openai:gpt-4o-mini" })).catch(
      (thrown: unknown) => thrown,
    );
    expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
    expect((error as Error).message).toContain("names provider 'openai'");
  });

  it("refuses a script outside the plugin folder", async () => {
    await expect(resolve({ use: "test", script: "../secrets.yaml" }, context())).rejects.toThrow(
      /leads out of the plugin folder/,
    );
  });
});
