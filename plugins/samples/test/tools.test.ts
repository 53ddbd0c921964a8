// Each sample tool as an agent calls it: through oz0's dispatch path (the manifest's parameters
// checked first), answering from the data shipped in the plugin and the notes memory on oz0's store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_NOTES } from "../src/index.js";
import { callError, openSamples, type Samples } from "./helpers.js";

let samples: Samples;
beforeAll(async () => {
  samples = await openSamples(["default", "acme"]);
});
afterAll(() => samples.close());

describe("web_search", () => {
  it("answers a cached query with its cached results, exactly", async () => {
    const result = (await samples.call("web_search.search", { query: "Lisbon tram 28 route" })) as {
      match: string;
      results: unknown[];
    };
    expect(result).toMatchObject({
      match: "exact",
      cached_query: "lisbon tram 28 route",
      fetched: "2026-04-01",
    });
    expect(result.results).toHaveLength(2);
  });

  it("answers with the closest cached query when most words match, folding accents", async () => {
    expect(
      await samples.call("web_search.search", { query: "When to visit the Belem tower?", limit: 1 }),
    ).toMatchObject({
      match: "closest",
      similarity: 0.6,
      cached_query: "best time to visit belem tower",
      results: [{ url: "https://example.org/lisbon/belem-tower" }],
    });
  });

  it("answers nothing, saying so, for a query far from every cached one", async () => {
    expect(
      await samples.call("web_search.search", { query: "quantum chromodynamics lecture notes" }),
    ).toMatchObject({
      match: "none",
      cached_query: null,
      results: [],
    });
  });

  it("refuses arguments its manifest does not allow, before running", async () => {
    expect((await callError(samples, "web_search.search", { query: "tram", limit: 50 })).code).toBe(
      "INVALID_INPUT",
    );
    expect((await callError(samples, "web_search.search", {})).code).toBe("INVALID_INPUT");
  });
});

describe("verify_fact", () => {
  it("supports a claim the fact base holds", async () => {
    expect(
      await samples.call("verify_fact.verify", { claim: "Tram 28 runs through the Alfama district" }),
    ).toMatchObject({ verdict: "supported", source: "https://example.org/lisbon/tram-28" });
  });

  it("refutes a claim the fact base knows to be false, with the correction", async () => {
    expect(
      await samples.call("verify_fact.verify", { claim: "Lisbon is the capital of Spain" }),
    ).toMatchObject({
      verdict: "refuted",
      correction: "Lisbon is the capital of Portugal; Madrid is the capital of Spain.",
    });
  });

  it("leaves a claim about another number unverified rather than judging it by a near statement", async () => {
    expect(
      await samples.call("verify_fact.verify", { claim: "The Belém Tower was built in the 19th century" }),
    ).toMatchObject({ verdict: "unverified", confidence: 0, evidence: null });
    expect(await samples.call("verify_fact.verify", { claim: "Penguins live in Lisbon" })).toMatchObject({
      verdict: "unverified",
    });
  });
});

describe("memory_search and memory_get", () => {
  it("find the seed notes a tenant's memory starts with, by stemmed words", async () => {
    const result = (await samples.call("memory_search.search", { query: "museum" })) as {
      hits: { key: string; score: number }[];
    };
    expect(result.hits.map((hit) => hit.key).sort()).toEqual(["traveller/preferences", "trip/porto-idea"]);
    expect(result.hits[0]?.score).toBeGreaterThan(0);
  });

  it("rank the notes with more of the query's words first, up to the limit", async () => {
    const result = (await samples.call("memory_search.search", { query: "Lisbon trip hotel", limit: 2 })) as {
      hits: { key: string }[];
    };
    expect(result.hits.map((hit) => hit.key)).toEqual(["trip/lisbon", "trip/porto-idea"]);
  });

  it("read one note by key, or say there is none", async () => {
    const seed = SEED_NOTES.find((note) => note.key === "traveller/budget")!;
    expect(await samples.call("memory_get.get", { key: "traveller/budget" })).toEqual({
      key: seed.key,
      found: true,
      content: seed.content,
      metadata: seed.metadata,
    });
    expect(await samples.call("memory_get.get", { key: "trip/tokyo" })).toEqual({
      key: "trip/tokyo",
      found: false,
    });
  });

  it("keep each tenant's notes apart", async () => {
    const provider = await samples.runtime.catalog.memory("acme", "samples", "notes");
    await provider.store({ key: "acme/only", content: "A tasting of ginjinha in Rossio." });
    expect(await samples.call("memory_get.get", { key: "acme/only" }, "acme")).toMatchObject({ found: true });
    expect(await samples.call("memory_get.get", { key: "acme/only" })).toMatchObject({ found: false });
    const hits = (await samples.call("memory_search.search", { query: "ginjinha" })) as { hits: unknown[] };
    expect(hits.hits).toEqual([]);
  });

  it("are reached by their manifests' references too", async () => {
    expect(await samples.call("samples:tools/memory-get.tool.yaml", { key: "traveller/diet" })).toMatchObject(
      { found: true, content: "Vegetarian; no fish or meat, eggs and cheese are fine." },
    );
  });
});

describe("get_schedule", () => {
  it("lists what is open on a date's weekday and the events on that date", async () => {
    const result = (await samples.call("get_schedule.lookup", { city: "Lisbon", date: "2026-05-15" })) as {
      weekday: string;
      entries: { name: string }[];
    };
    expect(result.weekday).toBe("fri");
    expect(result.entries.map((entry) => entry.name)).toEqual([
      "Gulbenkian Museum",
      "National Tile Museum (MNAz)",
      "Belém Tower",
      "Jerónimos Monastery",
      "Tram 28",
      "Fado at Clube de Fado",
    ]);
  });

  it("leaves out what is closed that day, and keeps entries whose name contains `name`", async () => {
    const monday = (await samples.call("get_schedule.lookup", { city: "lisbon", date: "2026-05-18" })) as {
      entries: { name: string }[];
    };
    expect(monday.entries.map((entry) => entry.name)).toEqual(["Gulbenkian Museum", "Tram 28"]);
    expect(await samples.call("get_schedule.lookup", { city: "Porto", name: "lello" })).toMatchObject({
      date: null,
      entries: [{ name: "Livraria Lello", days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] }],
    });
  });

  it("refuses a date that does not exist, and a city the samples do not have", async () => {
    expect(
      (await callError(samples, "get_schedule.lookup", { city: "Lisbon", date: "2026-02-30" })).message,
    ).toBe("date: '2026-02-30' is not a date; write YYYY-MM-DD, such as 2026-05-15");
    const city = await callError(samples, "get_schedule.lookup", { city: "Madrid" });
    expect([city.code, city.message]).toEqual([
      "NOT_FOUND",
      "city: no schedules for 'Madrid'; the samples have Lisbon, Porto",
    ]);
  });
});

describe("get_attractions", () => {
  it("lists a city's attractions best rated first, up to the limit", async () => {
    const result = (await samples.call("get_attractions.lookup", { city: "Lisbon", limit: 3 })) as {
      count: number;
      attractions: { name: string }[];
    };
    expect(result.count).toBe(7);
    expect(result.attractions.map((entry) => entry.name)).toEqual([
      "Gulbenkian Museum",
      "Miradouro da Senhora do Monte",
      "Jerónimos Monastery",
    ]);
  });

  it("keeps one category, within a price", async () => {
    const result = (await samples.call("get_attractions.lookup", {
      city: "Lisbon",
      category: "museum",
      max_price_eur: 10,
    })) as { attractions: { name: string }[] };
    expect(result.attractions.map((entry) => entry.name)).toEqual([
      "Gulbenkian Museum",
      "National Tile Museum (MNAz)",
    ]);
  });

  it("refuses a category its manifest does not list, and a city the samples do not have", async () => {
    expect(
      (await callError(samples, "get_attractions.lookup", { city: "Lisbon", category: "nightlife" })).code,
    ).toBe("INVALID_INPUT");
    expect((await callError(samples, "get_attractions.lookup", { city: "Oslo" })).code).toBe("NOT_FOUND");
  });
});
