// What each sample tool says about itself beyond its manifest: the row of the spec's tool
// summary table (spec/plugin-and-tool-authoring.txt §4), notes and worked examples.
// docs/samples.md is rendered from it and the manifests, and its examples are run.

/** One call and what it returns, shown in the docs. */
export interface SampleExample {
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: unknown;
}

export interface SampleToolInfo {
  /** The tool ID, the manifest's `name`. */
  readonly id: string;
  /** The manifest's path in the plugin, as agents reference it. */
  readonly manifest: string;
  /** The class name the spec's table gives the tool. */
  readonly specName: string;
  readonly keyOperations: string;
  readonly externalDeps: string;
  readonly governance: string;
  /** Notes for the docs section: where the data comes from, how matching works. Markdown. */
  readonly notes: readonly string[];
  readonly examples: readonly SampleExample[];
}

/** Every sample tool, in the order of the spec's table. */
export const SAMPLE_TOOLS: readonly SampleToolInfo[] = [
  {
    id: "web_search",
    manifest: "tools/web-search.tool.yaml",
    specName: "WebSearchTool",
    keyOperations: "cached web search",
    externalDeps: "None",
    governance: "—",
    notes: [
      "Answers from `data/web-cache.json` in the plugin, never from the network: the same results every time, offline.",
      "A query is matched to the cached query that shares most of its words both ways (accents folded, small words left out): `exact` when all, `closest` when at least half, else `none` with no results.",
    ],
    examples: [
      {
        args: { query: "Lisbon tram 28 route", limit: 1 },
        result: {
          query: "Lisbon tram 28 route",
          match: "exact",
          cached_query: "lisbon tram 28 route",
          similarity: 1,
          fetched: "2026-04-01",
          results: [
            {
              title: "Tram 28: Lisbon's classic route",
              url: "https://example.org/lisbon/tram-28",
              snippet:
                "Tram 28 runs from Martim Moniz through Graça, Alfama and Baixa to Campo de Ourique; board early to avoid queues.",
            },
          ],
        },
      },
    ],
  },
  {
    id: "verify_fact",
    manifest: "tools/verify-fact.tool.yaml",
    specName: "VerifyFactTool",
    keyOperations: "fact verification",
    externalDeps: "None",
    governance: "—",
    notes: [
      "Checks against `data/facts.json`: a claim is judged by the known statement that shares at least 60% of its words both ways and names the same numbers; any other claim is `unverified`, never guessed.",
    ],
    examples: [
      {
        args: { claim: "The Belem Tower is open on Mondays" },
        result: {
          claim: "The Belem Tower is open on Mondays",
          verdict: "refuted",
          confidence: 1,
          evidence: "The Belém Tower is open on Mondays.",
          correction: "The Belém Tower is closed on Mondays.",
          source: "https://example.org/lisbon/belem-tower",
        },
      },
      {
        args: { claim: "The Belém Tower was built in the 19th century" },
        result: {
          claim: "The Belém Tower was built in the 19th century",
          verdict: "unverified",
          confidence: 0,
          evidence: null,
          source: null,
        },
      },
    ],
  },
  {
    id: "memory_search",
    manifest: "tools/memory-search.tool.yaml",
    specName: "MemorySearchTool",
    keyOperations: "semantic memory search",
    externalDeps: "None",
    governance: "—",
    notes: [
      "Searches the `notes` memory provider the plugin registers with `host.addMemory`, kept on oz0's store through `MemoryContext.db`: full-text search in the database (SQLite FTS5 with the Porter stemmer, PostgreSQL `tsvector` with the English configuration), best match first. A note matches when it has any of the query's words; `museums` finds `museum`.",
      "A tenant's notes start with a few seed notes about a trip to Lisbon (`trip/lisbon`, `traveller/preferences`, `traveller/diet`, `traveller/budget`, `trip/porto-idea`).",
    ],
    examples: [
      {
        args: { query: "vegetarian", limit: 1 },
        result: {
          query: "vegetarian",
          hits: [
            {
              key: "traveller/diet",
              content: "Vegetarian; no fish or meat, eggs and cheese are fine.",
              metadata: { kind: "preference" },
              score: "(the database's rank)",
            },
          ],
        },
      },
    ],
  },
  {
    id: "memory_get",
    manifest: "tools/memory-get.tool.yaml",
    specName: "MemoryGetTool",
    keyOperations: "key-value memory retrieval",
    externalDeps: "None",
    governance: "—",
    notes: ["Reads one note of the `notes` memory by key; a key with no note gives `found: false`."],
    examples: [
      {
        args: { key: "traveller/budget" },
        result: {
          key: "traveller/budget",
          found: true,
          content: "Daily budget of about 80 euros for tickets, food and transport.",
          metadata: { kind: "budget", currency: "EUR" },
        },
      },
      { args: { key: "trip/tokyo" }, result: { key: "trip/tokyo", found: false } },
    ],
  },
  {
    id: "get_schedule",
    manifest: "tools/get-schedule.tool.yaml",
    specName: "GetScheduleTool",
    keyOperations: "schedule lookup",
    externalDeps: "None",
    governance: "—",
    notes: [
      "Answers from `data/schedules.json` (Lisbon and Porto). With `date`, the entries open that day of the week and the events on that date; `name` keeps entries whose name contains it.",
    ],
    examples: [
      {
        args: { city: "Lisbon", date: "2026-05-18", name: "tower" },
        result: { city: "Lisbon", date: "2026-05-18", weekday: "mon", entries: [] },
      },
      {
        args: { city: "Lisbon", date: "2026-05-16", name: "fado" },
        result: {
          city: "Lisbon",
          date: "2026-05-16",
          weekday: "sat",
          entries: [
            {
              name: "Fado at Clube de Fado",
              kind: "event",
              dates: ["2026-05-15", "2026-05-16"],
              opens: "21:00",
              closes: "23:30",
              notes: "Book a table a day ahead.",
            },
          ],
        },
      },
    ],
  },
  {
    id: "get_attractions",
    manifest: "tools/get-attractions.tool.yaml",
    specName: "GetAttractionsTool",
    keyOperations: "attraction lookup",
    externalDeps: "None",
    governance: "—",
    notes: ["Answers from `data/attractions.json` (Lisbon and Porto), best rated first."],
    examples: [
      {
        args: { city: "porto", category: "viewpoint" },
        result: {
          city: "Porto",
          count: 1,
          attractions: [
            {
              name: "Jardins do Palácio de Cristal",
              category: "viewpoint",
              area: "Massarelos",
              description: "Gardens with peacocks and views over the Douro, free.",
              price_eur: 0,
              rating: 4.7,
            },
          ],
        },
      },
    ],
  },
];
