// docs/sdk.md lists every name the SDK's two public entries export, and docs/addresses.md every
// name rule and limit. These tests read the entries and the rules, so a name, rule or limit
// added, changed or removed on one side only fails them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  assertModelNameFits,
  assertName,
  CONTRACT_TAXONOMY,
  FAILURE_LIMITS,
  formatAddress,
  MAX_TAGS,
  MODEL_NAME_LIMIT,
  MODEL_NAME_LIMITS,
  MODEL_NAME_SEPARATOR,
  type NameKind,
  nameProblem,
  notOwnedMessage,
  type PatternOf,
  PLATFORM_FAILURE_KINDS,
  parseAddress,
  parseFunctionAddress,
  parsePartAddress,
  parsePattern,
  parseToolAddress,
  patternCovers,
  patternSpecificity,
  resolveReference,
} from "../../src/index.js";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
const docs = (name: string) => read(`../../../../docs/${name}`);

interface Exported {
  readonly name: string;
  readonly type: boolean;
}

/** The names an index.ts re-exports, each marked when it is a type only. */
function exportsOf(source: string): Exported[] {
  const blocks = [...source.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*from\s*"[^"]+";/gm)];
  // An index holds re-exports only; any other export would escape this reading.
  expect(source.match(/^export\b/gm)?.length).toBe(blocks.length);
  return blocks.flatMap((block) =>
    (block[2] ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => ({
        name:
          entry
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)
            .at(-1) ?? "",
        type: block[1] !== undefined || entry.startsWith("type "),
      })),
  );
}

/** The `### ` groups of a section, each with the first cells of its table rows. */
function tableRows(section: string): { group: string; name: string; kind: string; row: string }[] {
  return section
    .split(/^### /m)
    .slice(1)
    .flatMap((part) => {
      const group = part.slice(0, part.indexOf("\n"));
      return [...part.matchAll(/^\| `([^`]+)` \| ([^|]+) \|.*$/gm)].map((match) => ({
        group,
        name: match[1] ?? "",
        kind: (match[2] ?? "").trim(),
        row: match[0],
      }));
    });
}

describe("docs/sdk.md", () => {
  const text = docs("sdk.md");
  const reference = text.split(/^## Reference$/m)[1] ?? "";
  const rows = tableRows(reference);
  const root = exportsOf(read("../../src/index.ts"));
  const testing = exportsOf(read("../../src/testing/index.ts"));
  const internal = exportsOf(read("../../src/internal/index.ts"));
  const isTestingGroup = (group: string) => group.includes("@oz0/sdk/testing");

  it("reads the entries' export lists as the modules export them", async () => {
    const values = (list: Exported[]) => list.filter((entry) => !entry.type).map((entry) => entry.name);
    expect(values(root).sort()).toEqual(Object.keys(await import("../../src/index.js")).sort());
    expect(values(testing).sort()).toEqual(Object.keys(await import("../../src/testing/index.js")).sort());
  });

  it("lists every name @oz0/sdk exports in its reference tables, once, and no other", () => {
    const listed = rows.filter((row) => !isTestingGroup(row.group)).map((row) => row.name);
    expect(new Set(listed).size, "a name is listed twice").toBe(listed.length);
    expect([...listed].sort()).toEqual(root.map((entry) => entry.name).sort());
  });

  it("lists every name @oz0/sdk/testing exports in its own table, and no other", () => {
    const listed = rows.filter((row) => isTestingGroup(row.group)).map((row) => row.name);
    expect([...listed].sort()).toEqual(testing.map((entry) => entry.name).sort());
  });

  it("marks exactly the type-only exports as types", () => {
    const types = new Set([...root, ...testing].filter((entry) => entry.type).map((entry) => entry.name));
    const wrong = rows.filter((row) => (row.kind === "type") !== types.has(row.name)).map((row) => row.name);
    expect(wrong).toEqual([]);
  });

  it("gives every contract of the taxonomy with its contract ID", () => {
    for (const contract of CONTRACT_TAXONOMY) {
      const row = rows.find((entry) => entry.name === contract.className)?.row ?? "";
      expect(row, contract.className).toContain(`\`${contract.contractId}\``);
    }
  });

  it("names @oz0/sdk/internal only as not for plugins, and none of its own names", () => {
    const public_ = new Set([...root, ...testing].map((entry) => entry.name));
    const internalOnly = internal.map((entry) => entry.name).filter((name) => !public_.has(name));
    expect(internalOnly.filter((name) => text.includes(`\`${name}\``))).toEqual([]);
    expect(text).toMatch(/`@oz0\/sdk\/internal` \|[^\n]*not for plugins/);
  });
});

describe("docs/addresses.md", () => {
  const text = docs("addresses.md");
  const kinds = [
    ...(/export type NameKind =([^;]+);/.exec(read("../../src/names/rules.ts"))?.[1] ?? "").matchAll(
      /"([^"]+)"/g,
    ),
  ].map((match) => match[1] as NameKind);
  const ruleRows = new Map(
    [...text.matchAll(/^\| `([a-z ]+)` \| ([^|]+) \| (\d+) \|$/gm)].map((match) => [
      match[1] ?? "",
      { rule: (match[2] ?? "").trim(), max: Number(match[3]) },
    ]),
  );

  /** The longest valid name of a kind, found by asking the rule itself. */
  const maxLength = (kind: NameKind) => {
    let length = 1;
    while (nameProblem(kind, "a".repeat(length + 1)) === undefined) length++;
    return length;
  };

  it("reads every name kind of the rules", () => {
    expect(kinds).toContain("plugin");
    expect(kinds).toContain("failure kind");
  });

  it("documents every name kind with its rule and its exact limit, and no other kind", () => {
    expect([...ruleRows.keys()].sort()).toEqual([...kinds].sort());
    for (const kind of kinds) {
      const rule = /must be (.*)$/.exec(nameProblem(kind, "!") ?? "")?.[1];
      expect(ruleRows.get(kind), kind).toEqual({ rule, max: maxLength(kind) });
    }
  });

  it("states the limits on tags and failure kinds", () => {
    expect(text).toContain(`at most ${MAX_TAGS} tags (\`MAX_TAGS\`)`);
    expect(text).toContain(`at most ${FAILURE_LIMITS.maxKinds} failure kinds (\`FAILURE_LIMITS.maxKinds\`)`);
    expect(text).toContain(
      `at most ${FAILURE_LIMITS.maxDescription} characters (\`FAILURE_LIMITS.maxDescription\`)`,
    );
  });

  it("names every platform failure kind", () => {
    const section = text.split(/^### Failure kinds$/m)[1]?.split(/^## /m)[0] ?? "";
    for (const kind of PLATFORM_FAILURE_KINDS) expect(section).toContain(`\`${kind}\``);
  });

  it("gives the model-visible form and every provider format's limit", () => {
    expect(text).toContain(`\`<tool>${MODEL_NAME_SEPARATOR}<function>\``);
    const formats = [...text.matchAll(/^\| `([a-z]+)` \| (\d+) \|$/gm)].map((match) => [
      match[1],
      Number(match[2]),
    ]);
    expect(formats).toEqual(Object.entries(MODEL_NAME_LIMITS));
    expect(text).toContain(`longer than ${MODEL_NAME_LIMIT} characters`);
  });

  it("gives examples of every address form that parse as that form", () => {
    const forms = [...text.matchAll(/^\| `([a-z]+)` \| `<plugin>\/[^|]*\| `([^`]+)` \|$/gm)];
    expect(forms.map((match) => match[1])).toEqual(["function", "tool", "agent", "flow", "skill"]);
    for (const [, form = "", example = ""] of forms) {
      expect(formatAddress(parseAddress(example, form as "function"))).toBe(example);
    }
  });

  it("ranks each pattern of its table as patternSpecificity does", () => {
    const patterns = [...text.matchAll(/^\| `([^`]+)` \| (function|skill) \| [^|]+ \| (\d) \|$/gm)];
    expect(patterns.length).toBeGreaterThan(0);
    for (const [, pattern = "", of = "", rank = ""] of patterns) {
      expect(patternSpecificity(parsePattern(pattern, of as PatternOf)), pattern).toBe(Number(rank));
    }
  });

  it("says which addresses a pattern covers as patternCovers does", () => {
    const rows = [...text.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| ([a-z]+) \| (yes|no) \|$/gm)];
    expect(rows.length).toBeGreaterThan(0);
    for (const [, pattern = "", address = "", form = "", covered = ""] of rows) {
      const of: PatternOf = form === "skill" ? "skill" : "function";
      const result = patternCovers(parsePattern(pattern, of), parseAddress(address, form as "function"));
      expect(result, `${pattern} over ${address}`).toBe(covered === "yes");
    }
  });

  it("quotes exactly the messages the SDK gives for its examples", () => {
    const messageOf = (fn: () => unknown) => {
      try {
        return String(fn());
      } catch (error) {
        return (error as Error).message;
      }
    };
    const produced = [
      () => parseFunctionAddress("oz0_github.get_pull_request"),
      () => parseToolAddress("github/oz0_github.get_file"),
      () => resolveReference("a/b/c", { plugin: "acme", expect: "agent" }),
      () => notOwnedMessage({ address: parsePartAddress("github/triage", "agent"), owner: "support-triage" }),
      () => assertModelNameFits("acme_support_ticket_store", "lookup_ticket_by_customer_email_address"),
      () => assertName("tag", "HR"),
      () => assertName("plugin", "support-triage-for-the-whole-company-and-its-subsidiaries-worldwide"),
      () => assertName("agent", ""),
    ].map(messageOf);
    const quoted = [...text.matchAll(/^```text\n([\s\S]*?)^```$/gm)].flatMap((match) =>
      (match[1] ?? "").split("\n").filter((line) => line !== ""),
    );
    expect(quoted.sort()).toEqual(produced.sort());
  });
});
