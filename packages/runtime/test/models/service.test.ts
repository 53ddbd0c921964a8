import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error, type Oz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Models, SECRET_KEY_FILE } from "../../src/models/index.js";
import { openStore, type Store } from "../../src/store/index.js";

const TENANT = "default";
const KEY = "sk-proj-0123456789abcdefWXYZ";

let home: string;
let store: Store;
let models: Models;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-models-"));
  store = await openStore({ memory: true });
  models = new Models({ store, home, env: { OPENAI_API_KEY: "from-env", MY_KEY: "x" } });
});
afterAll(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

async function refusal(work: Promise<unknown>): Promise<Oz0Error> {
  return (await work.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  )) as Oz0Error;
}

describe("model aliases", () => {
  it("lists default on the offline test model while nothing is set", async () => {
    expect(await models.aliases(TENANT)).toEqual([
      { alias: "default", target: "test", fallback: true, options: {} },
    ]);
  });

  it("maps an alias to provider:model and lists it", async () => {
    await models.setAlias(TENANT, "default", "openai:gpt-4.1");
    await models.setAlias(TENANT, "fast", "openai-chat:gpt-4.1-mini");
    expect(await models.aliases(TENANT)).toEqual([
      { alias: "default", target: "openai:gpt-4.1", fallback: false, options: {} },
      { alias: "fast", target: "openai-chat:gpt-4.1-mini", fallback: false, options: {} },
    ]);
    await models.removeAlias(TENANT, "fast");
    await models.removeAlias(TENANT, "default");
  });

  it("keeps an alias's options and refuses an unknown option or a value out of range, naming it", async () => {
    const set = await models.setAlias(TENANT, "careful", "openai:gpt-4.1", {
      temperature: 0.2,
      store: false,
    });
    expect(set.options).toEqual({ temperature: 0.2, store: false });
    expect((await models.aliases(TENANT)).find((alias) => alias.alias === "careful")?.options).toEqual({
      temperature: 0.2,
      store: false,
    });
    const unknown = await refusal(models.setAlias(TENANT, "careful", "openai:gpt-4.1", { temprature: 0.2 }));
    expect(unknown.code).toBe("INVALID_INPUT");
    expect(unknown.message).toContain("unknown key 'temprature'; did you mean 'temperature'?");
    const range = await refusal(
      models.setAlias(TENANT, "careful", "openai:gpt-4.1", { top_p: 1.5, max_tokens: 0 }),
    );
    expect(range.message).toBe(
      "top_p: top_p is a number above 0, at most 1; max_tokens: max_tokens is a whole number from 1 to 1000000: the most tokens one answer may have.",
    );
    const header = await refusal(
      models.setAlias(TENANT, "careful", "openai:gpt-4.1", { headers: { Authorization: "Bearer other" } }),
    );
    expect(header.message).toContain("header Authorization is set by oz0");
    const stop = await refusal(models.setAlias(TENANT, "careful", "openai:gpt-4.1", { stop: ["END"] }));
    expect(stop.code).toBe("MODEL_NOT_CONFIGURED");
    expect(stop.message).toContain("cannot honour stop, set by alias careful");
    expect((await models.aliases(TENANT)).find((alias) => alias.alias === "careful")?.options).toEqual({
      temperature: 0.2,
      store: false,
    });
    await models.removeAlias(TENANT, "careful");
  });

  it("sets a provider not to stream, and structured output only for an openai-compatible one", async () => {
    const view = await models.setProvider(TENANT, "vllm", {
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:9/v1",
      stream: false,
      structuredOutput: "json_schema",
    });
    expect(view).toMatchObject({ stream: false, structuredOutput: "json_schema" });
    const refused = await refusal(models.setProvider(TENANT, "openai", { structuredOutput: "prompt" }));
    expect(refused.message).toContain("--structured-output applies to openai-compatible servers");
    await models.removeProvider(TENANT, "vllm");
  });

  it("accepts a model name with colons, as Ollama's are", async () => {
    await models.setAlias(TENANT, "local", "openai-compatible:qwen2.5:7b");
    expect((await models.aliases(TENANT)).find((alias) => alias.alias === "local")?.target).toBe(
      "openai-compatible:qwen2.5:7b",
    );
    await models.removeAlias(TENANT, "local");
  });

  it("refuses an alias to a provider the tenant does not have, when it is set", async () => {
    const error = await refusal(models.setAlias(TENANT, "default", "olama:qwen2.5"));
    expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
    expect(error.message).toContain("tenant default has no provider named olama");
  });

  it("refuses test as an alias name, and a target that is not provider:model", async () => {
    expect((await refusal(models.setAlias(TENANT, "test", "openai:gpt-4.1"))).message).toContain(
      "test is the offline test provider itself",
    );
    expect((await refusal(models.setAlias(TENANT, "fast", "gpt-4.1"))).message).toContain(
      "write <provider>:<model>",
    );
  });

  it("says so when an alias to remove is not set", async () => {
    expect(isOz0Error(await refusal(models.removeAlias(TENANT, "nope")), "NOT_FOUND")).toBe(true);
  });
});

describe("providers", () => {
  it("lists the built-in providers with where their base URL and key come from", async () => {
    const list = await models.providers(TENANT);
    expect(list.map((entry) => entry.name)).toEqual([
      "test",
      "openai",
      "openai-chat",
      "anthropic",
      "openai-compatible",
    ]);
    expect(list.find((entry) => entry.name === "openai")).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      baseUrlFrom: "default",
      key: { state: "env", env: "OPENAI_API_KEY", set: true },
    });
    expect(list.find((entry) => entry.name === "anthropic")?.key).toEqual({
      state: "env",
      env: "ANTHROPIC_API_KEY",
      set: false,
    });
    expect(list.find((entry) => entry.name === "openai-compatible")).toMatchObject({ baseUrl: null });
  });

  it("stores a key encrypted and shows only its hint", async () => {
    const view = await models.setProvider(TENANT, "openai", { apiKey: KEY });
    expect(view.key).toEqual({ state: "stored", hint: "sk-proj-…WXYZ" });
    const rows = await store.db.selectFrom("settings").select(["key", "value"]).execute();
    expect(JSON.stringify(rows)).not.toContain(KEY);
    expect(JSON.stringify(rows)).not.toContain("0123456789abcdef");
    expect((await stat(join(home, SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
  });

  it("shares openai's settings with openai-chat until openai-chat has its own", async () => {
    const chat = (await models.providers(TENANT)).find((entry) => entry.name === "openai-chat");
    expect(chat?.key).toEqual({ state: "stored", hint: "sk-proj-…WXYZ" });
  });

  it("drops a stored key when the key is to come from an environment variable", async () => {
    const view = await models.setProvider(TENANT, "openai", { apiKeyEnv: "MY_KEY" });
    expect(view.key).toEqual({ state: "env", env: "MY_KEY", set: true });
    const rows = await store.db
      .selectFrom("settings")
      .select("key")
      .where("key", "like", "secret.%")
      .execute();
    expect(rows).toEqual([]);
    await models.removeProvider(TENANT, "openai");
  });

  it("configures a new name of a built-in type, such as an Ollama server", async () => {
    const view = await models.setProvider(TENANT, "ollama", {
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434/v1/",
    });
    expect(view).toMatchObject({
      name: "ollama",
      type: "openai-compatible",
      source: "tenant",
      baseUrl: "http://127.0.0.1:11434/v1",
      baseUrlFrom: "tenant",
      key: { state: "none", required: false },
    });
    await models.setAlias(TENANT, "local", "ollama:qwen2.5:7b");
    await models.removeAlias(TENANT, "local");
    await models.removeProvider(TENANT, "ollama");
  });

  it("refuses what it cannot use, saying why", async () => {
    const cases: [Promise<unknown>, string][] = [
      [models.setProvider(TENANT, "ollama", { baseUrl: "http://x" }), "a new provider needs --type"],
      [
        models.setProvider(TENANT, "openai", { type: "anthropic" }),
        "openai is a built-in provider of type openai",
      ],
      [models.setProvider(TENANT, "openai", { baseUrl: "localhost:1234" }), "is not an http or https URL"],
      [
        models.setProvider(TENANT, "openai", { baseUrl: "http://user:pw@host/v1" }),
        "carries no user or password",
      ],
      [models.setProvider(TENANT, "openai", { timeoutSeconds: 0 }), "--timeout is seconds"],
      [models.setProvider(TENANT, "openai", { retries: 11 }), "--retries is how many times"],
      [models.setProvider(TENANT, "openai", { apiKey: "a b" }), "empty or has spaces"],
      [models.setProvider(TENANT, "openai", { apiKeyEnv: "MY-KEY" }), "is not an environment variable name"],
      [models.setProvider(TENANT, "openai", { apiKey: KEY, apiKeyEnv: "MY_KEY" }), "give the key one way"],
      [models.setProvider(TENANT, "test", {}), "test is the offline test provider"],
      [models.setProvider(TENANT, "Bad_Name", { type: "openai" }), "is not a provider name"],
    ];
    for (const [work, text] of cases) {
      const error = await refusal(work);
      expect(isOz0Error(error, "INVALID_INPUT")).toBe(true);
      expect(error.message).toContain(text);
    }
  });
});

describe("stored keys", () => {
  it("cannot be read with another encryption key, and the message says what to do", async () => {
    const otherHome = await mkdtemp(join(tmpdir(), "oz0-models-"));
    try {
      await models.setProvider(TENANT, "anthropic", { apiKey: KEY });
      const elsewhere = new Models({ store, home: otherHome, env: {} });
      const error = await refusal(
        elsewhere.resolver(
          { use: "anthropic:claude" },
          { tenant: TENANT, pluginDir: home, setting: (key) => settingOf(key) },
        ),
      );
      expect(isOz0Error(error, "MODEL_NOT_CONFIGURED")).toBe(true);
      expect(error.message).toContain("Set OZ0_SECRET_KEY to the same value in every oz0 process");
      expect(error.message).not.toContain(KEY);
    } finally {
      await models.removeProvider(TENANT, "anthropic");
      await rm(otherHome, { recursive: true, force: true });
    }
  });

  it("are read by every process that shares OZ0_SECRET_KEY", async () => {
    const [one, two] = [await mkdtemp(join(tmpdir(), "oz0-a-")), await mkdtemp(join(tmpdir(), "oz0-b-"))];
    try {
      const env = { OZ0_SECRET_KEY: "correct horse battery staple" };
      const writer = new Models({ store, home: one, env });
      await writer.setProvider(TENANT, "anthropic", { apiKey: KEY });
      const reader = new Models({ store, home: two, env });
      const model = await reader.resolver(
        { use: "anthropic:claude" },
        { tenant: TENANT, pluginDir: two, setting: (key) => settingOf(key) },
      );
      expect(model.id).toBe("anthropic:claude");
      await expect(readFile(join(one, SECRET_KEY_FILE))).rejects.toThrow();
    } finally {
      await models.removeProvider(TENANT, "anthropic");
      await rm(one, { recursive: true, force: true });
      await rm(two, { recursive: true, force: true });
    }
  });
});

describe("prices", () => {
  it("sets, lists and removes prices in USD per million tokens", async () => {
    await models.setPrice(TENANT, "openai:gpt-4.1", { input: 2, output: 8, cached: 0.5 });
    await models.setPrice(TENANT, "test:*", { input: 0.1, output: 0.2 });
    expect(await models.prices(TENANT)).toEqual([
      { target: "openai:gpt-4.1", input: 2, output: 8, cached: 0.5 },
      { target: "test:*", input: 0.1, output: 0.2 },
    ]);
    await models.removePrice(TENANT, "test:*");
    await models.removePrice(TENANT, "openai:gpt-4.1");
    expect(await models.prices(TENANT)).toEqual([]);
  });

  it("refuses a negative price and a target that is not provider:model", async () => {
    expect(
      (await refusal(models.setPrice(TENANT, "openai:gpt-4.1", { input: -1, output: 1 }))).message,
    ).toContain("--input is USD per million tokens");
    expect((await refusal(models.setPrice(TENANT, "gpt-4.1", { input: 1, output: 1 }))).message).toContain(
      "write <provider>:<model>",
    );
  });
});

async function settingOf(key: string): Promise<unknown> {
  const row = await store.db
    .selectFrom("settings")
    .select("value")
    .where("tenant", "=", TENANT)
    .where("key", "=", key)
    .executeTakeFirst();
  return row === undefined ? undefined : JSON.parse(row.value);
}
