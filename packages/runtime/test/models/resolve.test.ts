import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { type ModelContext, modelResolver, type PluginProvider } from "../../src/models/index.js";
import { fixture } from "../jobs/dir-source.js";

function context(settings: Record<string, unknown> = {}): ModelContext {
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
    const error = await resolve({ use: "fast" }, context({ "model.fast": "nosuch:gpt-4o-mini" })).catch(
      (thrown: unknown) => thrown,
    );
    expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
    expect((error as Error).message).toContain("names provider 'nosuch'");
  });

  it("refuses a script outside the plugin folder", async () => {
    await expect(resolve({ use: "test", script: "../secrets.yaml" }, context())).rejects.toThrow(
      /leads out of the plugin folder/,
    );
  });
});

describe("providers plugins register", () => {
  type Spec = PluginProvider["spec"];
  const spec = (name: string, languageModel: (id: string) => unknown, pluginId = "acme"): PluginProvider => ({
    pluginId,
    spec: { name, pluginId, meta: { displayName: "Acme" }, build: () => ({ languageModel }) } as Spec,
    config: {},
  });
  /** A language model of the AI SDK's specification 4, made by hand: any provider package would do. */
  const handMade = (id: string) => ({
    specificationVersion: "v4",
    provider: "acme",
    modelId: id,
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error("oz0 streams");
    },
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-delta", id: "t", delta: `hello from ${id}` });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: {
              inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 2, text: 2, reasoning: undefined },
            },
          });
          controller.close();
        },
      }),
    }),
  });

  it("runs a model of a plugin's provider as <provider>:<model>", async () => {
    const resolve = modelResolver({ pluginProviders: async () => [spec("acme", handMade)] });
    const model = await resolve({ use: "acme:small" }, context());
    expect(model.id).toBe("acme:small");
    const reply = await model.generate({
      step: 2,
      messages: [{ role: "user", content: "hi" }],
      functions: [],
      estimatedInputTokens: 1,
      signal: new AbortController().signal,
    });
    expect(reply).toMatchObject({ text: "hello from small", usage: { inputTokens: 3, outputTokens: 2 } });
  });

  it("refuses a provider whose build returns no AI SDK language model", async () => {
    const resolve = modelResolver({ pluginProviders: async () => [spec("acme", () => ({ generate() {} }))] });
    const error = await resolve({ use: "acme:small" }, context()).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect((error as Error).message).toContain("languageModel(id) must return a LanguageModelV2, V3 or V4");
  });

  it("uses neither of two plugins' providers of one name", async () => {
    const resolve = modelResolver({
      pluginProviders: async () => [spec("acme", handMade, "one"), spec("acme", handMade, "two")],
    });
    const error = await resolve({ use: "acme:small" }, context()).catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
    expect((error as Error).message).toContain(
      "plugins one and two each register a model provider named acme",
    );
  });
});
