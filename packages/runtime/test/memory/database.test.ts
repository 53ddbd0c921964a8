// MemoryContext.db on oz0's store, on every engine: JSON values by collection and key, scoped to
// a tenant and a plugin, with full-text search run by the database (FTS5 / tsvector).
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { MEMORY_LIMITS, StoreMemoryDatabase } from "../../src/memory/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

async function thrown(work: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work();
  } catch (error) {
    if (isOz0Error(error)) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe.each(fixtures)("the memory database on $label", (fixture) => {
  let store: Store;
  let db: StoreMemoryDatabase;
  beforeEach(async () => {
    store = await openStore(await fixture.fresh());
    await store.db.insertInto("tenants").values({ name: "acme", created_at: store.clockSql }).execute();
    db = new StoreMemoryDatabase(store, { tenant: "default", plugin: "samples" });
    return () => store.close();
  });

  it("keeps JSON values by collection and key, and replaces a value put again", async () => {
    await db.put("notes", "trip", { content: "Lisbon in May", tags: ["travel"] });
    expect(await db.get("notes", "trip")).toEqual({ content: "Lisbon in May", tags: ["travel"] });
    await db.put("notes", "trip", "Porto in June");
    expect(await db.get("notes", "trip")).toBe("Porto in June");
    expect(await db.get("notes", "nothing")).toBeUndefined();
    expect(await db.get("other", "trip")).toBeUndefined();
  });

  it("deletes a key, saying whether there was one", async () => {
    await db.put("notes", "trip", 1);
    expect(await db.delete("notes", "trip")).toBe(true);
    expect(await db.delete("notes", "trip")).toBe(false);
    expect(await db.get("notes", "trip")).toBeUndefined();
  });

  it("lists a collection in key order, by a prefix taken literally, up to a limit", async () => {
    for (const key of ["b/2", "a/1", "b/1", "b%", "c"]) await db.put("notes", key, key);
    expect((await db.list("notes")).map((entry) => entry.key)).toEqual(["a/1", "b%", "b/1", "b/2", "c"]);
    expect(await db.list("notes", { prefix: "b/" })).toEqual([
      { key: "b/1", value: "b/1" },
      { key: "b/2", value: "b/2" },
    ]);
    expect((await db.list("notes", { prefix: "b%" })).map((entry) => entry.key)).toEqual(["b%"]);
    expect((await db.list("notes", { limit: 2 })).map((entry) => entry.key)).toEqual(["a/1", "b%"]);
  });

  it("keeps each tenant's and each plugin's values apart", async () => {
    const otherTenant = new StoreMemoryDatabase(store, { tenant: "acme", plugin: "samples" });
    const otherPlugin = new StoreMemoryDatabase(store, { tenant: "default", plugin: "notes" });
    await db.put("notes", "trip", "mine");
    await otherTenant.put("notes", "trip", "acme's");
    expect(await otherPlugin.get("notes", "trip")).toBeUndefined();
    expect(await otherTenant.get("notes", "trip")).toBe("acme's");
    expect(await otherPlugin.search("notes", "mine")).toEqual([]);
    expect((await otherTenant.search("notes", "acme")).map((hit) => hit.key)).toEqual(["trip"]);
  });

  it("finds values by full-text search, best match first, with stemmed words", async () => {
    await db.put("notes", "museums", { content: "Visit the museums of Belém", metadata: { city: "Lisbon" } });
    await db.put("notes", "food", { content: "Vegetarian lunch in Baixa" });
    await db.put("notes", "both", { content: "Museum café with vegetarian lunch, museum shop" });
    const hits = await db.search("notes", "museum");
    expect(hits.map((hit) => hit.key).sort()).toEqual(["both", "museums"]);
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(hits.find((hit) => hit.key === "museums")?.value).toEqual({
      content: "Visit the museums of Belém",
      metadata: { city: "Lisbon" },
    });
    // The strings inside the value are indexed, not its keys.
    expect((await db.search("notes", "lisbon")).map((hit) => hit.key)).toEqual(["museums"]);
    expect(await db.search("notes", "metadata content")).toEqual([]);
  });

  it("matches a value with any of the query's words, and ranks the one with more first", async () => {
    await db.put("notes", "one", "vegetarian lunch");
    await db.put("notes", "two", "a museum visit");
    await db.put("notes", "three", "museum then vegetarian dinner");
    const keys = (await db.search("notes", "museum vegetarian")).map((hit) => hit.key);
    expect(keys[0]).toBe("three");
    expect([...keys].sort()).toEqual(["one", "three", "two"]);
    expect(await db.search("notes", "museum vegetarian", { limit: 1 })).toHaveLength(1);
  });

  it("reads any query as plain words, so operators and quotes are no syntax errors", async () => {
    await db.put("notes", "tram", "Tram 28 through Alfama");
    for (const query of [
      '"tram',
      "tram AND OR NOT",
      "tram* (28)",
      "alfama:tram",
      "-tram | & !",
      "NEAR(tram",
    ]) {
      expect(
        (await db.search("notes", query)).map((hit) => hit.key),
        query,
      ).toEqual(["tram"]);
    }
    expect(await db.search("notes", "  !!! ")).toEqual([]);
  });

  it("forgets a value in the index when it is replaced or deleted", async () => {
    await db.put("notes", "trip", "Lisbon in May");
    await db.put("notes", "trip", "Porto in June");
    expect(await db.search("notes", "lisbon")).toEqual([]);
    expect((await db.search("notes", "porto")).map((hit) => hit.key)).toEqual(["trip"]);
    await db.delete("notes", "trip");
    expect(await db.search("notes", "porto")).toEqual([]);
  });

  it("refuses a collection name, key or limit outside its rule, and undefined as a value", async () => {
    expect((await thrown(() => db.put("my notes", "k", 1))).message).toContain(
      'memory collection "my notes" is not a collection name',
    );
    expect((await thrown(() => db.get("notes", ""))).message).toContain('memory key "" is not a key');
    expect((await thrown(() => db.put("notes", "a\nb", 1))).code).toBe("INVALID_INPUT");
    expect((await thrown(() => db.put("notes", "k".repeat(MEMORY_LIMITS.key + 1), 1))).code).toBe(
      "INVALID_INPUT",
    );
    expect((await thrown(() => db.put("notes", "k", undefined))).message).toContain("the value must be JSON");
    expect((await thrown(() => db.search("notes", "x", { limit: 0 }))).message).toBe(
      `limit 0 is not a whole number from 1 to ${MEMORY_LIMITS.search}`,
    );
  });

  it("refuses a value larger than 1 MiB as JSON with LIMIT_EXCEEDED", async () => {
    const error = await thrown(() => db.put("notes", "big", "x".repeat(MEMORY_LIMITS.valueBytes)));
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.message).toContain(`a memory value may be at most ${MEMORY_LIMITS.valueBytes} bytes`);
  });
});
