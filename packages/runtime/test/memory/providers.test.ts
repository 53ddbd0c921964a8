// The memory providers a plugin registers with addMemory, built for a tenant with a
// MemoryContext whose db is the plugin's part of oz0's store.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryProviders } from "../../src/memory/index.js";
import { type LoadedPlugin, loadPluginDir } from "../../src/plugin-dir/index.js";
import { openStore, type Store } from "../../src/store/index.js";

const CODE = `export default {
  setup(host) {
    const provider = (name, ctx) => ({
      store: async (entry) => { await ctx.db.put(name, entry.key, entry.content); return { key: entry.key, content: entry.content, metadata: {} }; },
      get: async (key) => { const content = await ctx.db.get(name, key); return content === undefined ? undefined : { key, content, metadata: {} }; },
      search: async (query) => (await ctx.db.search(name, query)).map((hit) => ({ key: hit.key, content: hit.value, metadata: {}, score: hit.score })),
      pluginId: ctx.pluginId,
    });
    host.addMemory({ name: "short", build: (ctx) => provider("short", ctx) });
    host.addMemory({ name: "long", build: (ctx) => provider("long", ctx) });
    host.addMemory({ name: "broken", build: () => ({ store: () => undefined }) });
  },
};
`;

let dir: string;
let store: Store;
let plugin: LoadedPlugin;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oz0-memory-"));
  await mkdir(join(dir, "recall"));
  await writeFile(
    join(dir, "recall", "plugin.yaml"),
    "name: recall\nversion: 1.0.0\nmain: index.js\ncapabilities: [memory]\n",
  );
  await writeFile(join(dir, "recall", "index.js"), CODE);
  plugin = await loadPluginDir(join(dir, "recall"));
  store = await openStore({ memory: true });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function refusal(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work();
  } catch (error) {
    if (isOz0Error(error)) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe("memory providers", () => {
  it("builds a provider by name with the plugin's own storage, once per tenant", async () => {
    const providers = new MemoryProviders(store);
    const short = await providers.provider("default", plugin, "short");
    expect(await providers.provider("default", plugin, "short")).toBe(short);
    expect((short as unknown as { pluginId: string }).pluginId).toBe("recall");
    await short.store({ key: "k", content: "a kept thought" });
    expect(await short.get("k")).toEqual({ key: "k", content: "a kept thought", metadata: {} });
    const long = await providers.provider("default", plugin, "long");
    expect(await long.get("k")).toBeUndefined();
  });

  it("asks for a name when the plugin registers several, naming them", async () => {
    const error = await refusal(() => new MemoryProviders(store).provider("default", plugin));
    expect([error.code, error.message]).toEqual([
      "INVALID_INPUT",
      'plugin recall registers the memory providers short, long, broken; name the one to use, such as memory("short").',
    ]);
  });

  it("refuses a provider whose build returns no provider, saying what it lacks", async () => {
    const error = await refusal(() => new MemoryProviders(store).provider("default", plugin, "broken"));
    expect([error.code, error.message]).toEqual([
      "INVALID_PLUGIN",
      "memory provider 'broken' of plugin 'recall': build(ctx) must return a provider with store, get and search; it has no get, search.",
    ]);
  });
});
