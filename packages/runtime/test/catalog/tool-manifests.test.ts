// kind: Tool manifests in a tenant: installed as tools and functions of their plugin, named by
// reference (`almanac:tools/lookup.tool.yaml`) from any plugin's agents, checked at install like
// an address, resolved for jobs and calls by hand, and given the plugin's memory provider.
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { FunctionResolver, ToolCaller } from "../../src/tools/index.js";
import { plugin, refusal } from "./helpers.js";

let store: Store;
let catalog: Catalog;
let count = 0;
const newTenant = () => `tenant-${++count}`;

beforeAll(async () => {
  store = await openStore({ memory: true });
  catalog = new Catalog(store, tmpdir());
});
afterAll(() => store.close());

async function tenantWith(...plugins: string[]): Promise<string> {
  const tenant = newTenant();
  for (const name of plugins) await catalog.install(tenant, plugin(name));
  return tenant;
}

describe("kind: Tool manifests in a tenant", () => {
  it("installs each manifest's tool and function as parts of its plugin, declared in plugin.yaml or not", async () => {
    const tenant = await tenantWith("almanac");
    const entries = await catalog.entries(tenant);
    expect(
      entries
        .filter((entry) => entry.kind !== "agent")
        .map((entry) => [entry.kind, entry.address, entry.modelName]),
    ).toEqual([
      ["tool", "almanac/clock", null],
      ["tool", "almanac/lookup", null],
      ["tool", "almanac/remember", null],
      ["function", "almanac/clock.now", "clock__now"],
      ["function", "almanac/lookup.find", "lookup__find"],
      ["function", "almanac/remember.store_and_search", "remember__store_and_search"],
    ]);
    expect((await catalog.lookup(tenant, "almanac/remember")).description).toBe(
      "Stores a fact in the almanac's memory and searches it back.",
    );
  });

  it("installs an agent that names another plugin's manifest by reference when that plugin has it", async () => {
    const tenant = await tenantWith("almanac", "reader");
    expect((await catalog.list(tenant)).map((one) => one.name)).toEqual(["almanac", "reader"]);
  });

  it("refuses an agent's reference to a plugin that is not installed, saying where it is named", async () => {
    const tenant = await tenantWith("github");
    const error = await refusal(catalog.install(tenant, plugin("reader")), "USES_UNSATISFIED");
    expect(error.message).toContain(
      `agent reader (plugin.yaml) tools almanac:tools/lookup.tool.yaml: almanac is not installed in tenant ${tenant}`,
    );
  });

  it("refuses to remove the plugin whose manifest another plugin's agent names, unless forced", async () => {
    const tenant = await tenantWith("almanac", "reader");
    const error = await refusal(catalog.remove(tenant, "almanac"), "PART_IN_USE");
    expect(error.message).toContain(
      "reader, agent reader (plugin.yaml) tools almanac:tools/lookup.tool.yaml\n",
    );
    const forced = await catalog.remove(tenant, "almanac", { force: true, reason: "retiring the almanac" });
    expect(forced.overridden.map((problem) => problem.reference)).toContain("almanac:tools/lookup.tool.yaml");
  });

  it("resolves a reference to the function its manifest describes, through the owner check", async () => {
    const tenant = await tenantWith("almanac", "reader");
    const resolver = new FunctionResolver(catalog, { tenant, home: tmpdir() });
    const resolved = await resolver.resolve("almanac:tools/lookup.tool.yaml", "reader");
    expect(resolved.kind === "function" && [resolved.fn.address, resolved.fn.modelName]).toEqual([
      "almanac/lookup.find",
      "lookup__find",
    ]);
    const missing = await refusal(resolver.resolve("almanac:tools/nope.tool.yaml", "reader"), "NOT_FOUND");
    expect(missing.message).toContain("plugin almanac has no kind: Tool manifest tools/nope.tool.yaml");
    const malformed = await refusal(resolver.resolve("almanac:lookup.yaml"), "INVALID_ADDRESS");
    expect(malformed.message).toBe(
      "'almanac:lookup.yaml' names 'lookup.yaml', which is not a kind: Tool manifest of the plugin: write <plugin>:tools/<file>.tool.yaml, such as samples:tools/memory-search.tool.yaml",
    );
  });

  it("calls a manifest's function by hand, by address or by reference", async () => {
    const tenant = await tenantWith("almanac");
    const caller = new ToolCaller({ source: catalog, home: tmpdir() });
    const byRef = await caller.call(tenant, "almanac:tools/lookup.tool.yaml", { subject: "tides" });
    expect(byRef).toMatchObject({
      ok: true,
      address: "almanac/lookup.find",
      result: { subject: "tides", address: "almanac/lookup.find", plugin: "almanac", tenant },
    });
    const refused = await caller.call(tenant, "almanac/lookup.find", {});
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe("INVALID_INPUT");
  });

  it("gives a manifest's handler its plugin's memory provider, kept per tenant on oz0's store", async () => {
    const first = await tenantWith("almanac");
    const second = await tenantWith("almanac");
    const caller = new ToolCaller({ source: catalog, home: tmpdir() });
    const stored = await caller.call(first, "almanac/remember.store_and_search", {
      key: "tides",
      content: "Spring tides follow the new and full moons.",
      query: "moons",
    });
    expect(stored).toMatchObject({ ok: true, result: ["tides"] });
    const elsewhere = await caller.call(second, "almanac/remember.store_and_search", {
      key: "wind",
      content: "The mistral blows down the Rhône valley.",
      query: "moon tides",
    });
    expect(elsewhere).toMatchObject({ ok: true, result: [] });
    expect(await (await catalog.memory(first, "almanac")).get("tides")).toEqual({
      key: "tides",
      content: "Spring tides follow the new and full moons.",
      metadata: {},
    });
  });

  it("refuses a memory provider the plugin does not register, naming the ones it does", async () => {
    const tenant = await tenantWith("almanac", "github");
    const unnamed = await refusal(
      Promise.resolve().then(() => catalog.memory(tenant, "almanac", "notes")),
      "NOT_FOUND",
    );
    expect(unnamed.message).toBe("plugin almanac has no memory provider notes: it registers facts.");
    const none = await refusal(
      Promise.resolve().then(() => catalog.memory(tenant, "github")),
      "NOT_FOUND",
    );
    expect(none.message).toBe("plugin github has no memory provider: it registers none (host.addMemory).");
  });
});
