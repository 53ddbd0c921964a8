import { describe, expect, it } from "vitest";
import {
  FORBIDDEN_KEYS,
  parseAgentFile,
  parsePluginManifest,
  parseSafeYaml,
  YAML_LIMITS,
} from "../../src/manifest/index.js";
import { errorOf, fixture, issuesOf, onlyIssue } from "./helpers.js";

const file = "plugin.yaml";
const read = (text: string) => parseSafeYaml(text, { file }).value;
const unsafe = (text: string) => errorOf("UNSAFE_YAML", () => read(text));

describe("reading untrusted YAML", () => {
  it("reads maps, lists and plain values as plain data", () => {
    expect(read("a: 1\nb: [x, true, null]\nc: { d: 1.5 }\n")).toEqual({
      a: 1,
      b: ["x", true, null],
      c: { d: 1.5 },
    });
  });

  it("reads an empty file as null", () => {
    expect(read("")).toBeNull();
    expect(read("# only a comment\n")).toBeNull();
  });

  it("keeps YAML 1.2 core types even under a %YAML 1.1 directive", () => {
    expect(read("%YAML 1.1\n---\na: yes\nb: 2001-12-14\n")).toEqual({ a: "yes", b: "2001-12-14" });
  });
});

describe("alias expansion (billion laughs)", () => {
  it("refuses the billion-laughs document with UNSAFE_YAML at the alias that crossed the limit", () => {
    const error = unsafe(fixture("billion-laughs.yaml"));
    expect(error.data).toMatchObject({ file, limit: YAML_LIMITS.maxAliases });
    expect(error.data?.line).toBeGreaterThanOrEqual(2);
    expect(error.message).toMatch(/^plugin\.yaml:\d+:\d+: more than 100 aliases/);
  });

  it("accepts 100 aliases and refuses the 101st", () => {
    const list = (count: number) => `a: &x 1\nb: [${Array.from({ length: count }, () => "*x").join(", ")}]\n`;
    expect((read(list(100)) as { b: unknown[] }).b).toHaveLength(100);
    const error = unsafe(list(101));
    expect(error.data).toMatchObject({ line: 2, limit: 100 });
  });

  it("refuses aliases that copy more than 10000 values in all", () => {
    const big = `[${Array.from({ length: 200 }, (_, i) => i).join(", ")}]`;
    const text = `a: &big ${big}\nb: [${Array.from({ length: 60 }, () => "*big").join(", ")}]\n`;
    expect(unsafe(text).data).toMatchObject({ limit: YAML_LIMITS.maxAliasNodes });
  });

  it("refuses an alias that contains itself", () => {
    expect(unsafe("a: &a [*a]\n").code).toBe("UNSAFE_YAML");
  });

  it("refuses an alias to an anchor that is not defined before it", () => {
    const issue = onlyIssue(() => read("a: *nope\nb: &nope 1\n"));
    expect(issue).toMatchObject({
      line: 1,
      column: 4,
      message: expect.stringContaining("*nope names no anchor"),
    });
  });
});

describe("tags", () => {
  it.each([
    ["a custom tag", "a: !foo 1\n"],
    ["a JavaScript-style tag", "a: !!js/function 'function () {}'\n"],
    ["a standard YAML tag", "a: !!str 1\n"],
    ["a binary tag", "a: !!binary aGVsbG8=\n"],
    ["a tag on a list", "a: !!set [x]\n"],
  ])("refuses %s", (_what, text) => {
    const error = unsafe(text);
    expect(error.message).toMatch(/^plugin\.yaml:1:\d+: tags such as '.+' are not allowed/);
  });

  it("refuses a tag on a key", () => {
    expect(unsafe("!foo a: 1\n").message).toContain("tags such as");
  });
});

describe("prototype keys", () => {
  it.each(FORBIDDEN_KEYS.map((key) => [key]))("refuses the key %s, quoted or plain, at any depth", (key) => {
    expect(unsafe(`${key}: { polluted: true }\n`).data).toMatchObject({ line: 1, column: 1 });
    expect(unsafe(`a:\n  b:\n    "${key}": 1\n`).data).toMatchObject({ line: 3, column: 5 });
  });

  it("refuses __proto__ smuggled in through a merge key, and leaves Object.prototype untouched", () => {
    const attacks = [
      "<<: { __proto__: { polluted: true } }\n",
      "base: &b { __proto__: { polluted: true } }\nagent: { <<: *b }\n",
      "<<: [{ a: 1 }, { constructor: { prototype: { polluted: true } } }]\n",
    ];
    for (const attack of attacks) {
      expect(() => read(attack)).toThrow(/refused in a manifest/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("refuses __proto__ in plugin.yaml with UNSAFE_YAML, before the schema sees it", () => {
    const error = errorOf("UNSAFE_YAML", () =>
      parsePluginManifest("name: p\nversion: 1.0.0\ntools:\n  - id: t\n    __proto__: { admin: true }\n", {
        file,
      }),
    );
    expect(error.data).toMatchObject({ file, line: 5, column: 5 });
  });
});

describe("merge keys", () => {
  it("merges the keys of an aliased map, keys written in the map winning", () => {
    const value = read("defaults: &d { model: fast, tags: [a] }\nagent:\n  <<: *d\n  model: default\n");
    expect(value).toEqual({
      defaults: { model: "fast", tags: ["a"] },
      agent: { model: "default", tags: ["a"] },
    });
  });

  it("merges a list of maps, earlier maps winning", () => {
    expect(read("a: { <<: [{ x: 1 }, { x: 2, y: 2 }] }\n")).toEqual({ a: { x: 1, y: 2 } });
  });

  it("reads a quoted '<<' as an ordinary key", () => {
    expect(read('"<<": 1\n')).toEqual({ "<<": 1 });
  });

  it("refuses a merge of something that is not a map", () => {
    expect(onlyIssue(() => read("a: { <<: 3 }\n")).message).toContain("takes a map");
  });

  it("places a problem in a merged key at the anchor that defined it", () => {
    const merged = onlyIssue(() =>
      parsePluginManifest("name: p\nversion: 1.0.0\nmodel:\n  <<: { use: '' }\n", { file }),
    );
    expect(merged).toMatchObject({ path: ["model", "use"], line: 4, column: 14 });
    const aliased = issuesOf(() =>
      parsePluginManifest(
        "name: p\nversion: 1.0.0\nmodel: &m { use: '' }\nagents:\n  - name: a\n    model: { <<: *m }\n",
        {
          file,
        },
      ),
    );
    expect(aliased.map((issue) => [issue.path.join("."), issue.line, issue.column])).toEqual([
      ["model.use", 3, 18],
      ["agents.0.model.use", 3, 18],
    ]);
  });
});

describe("size and depth limits", () => {
  it("accepts a file of exactly 1 MiB and refuses one byte more", () => {
    const line = `# ${"x".repeat(1021)}\n`; // 1024 bytes
    const exact = line.repeat(1024);
    expect(read(exact)).toBeNull();
    expect(unsafe(`${exact}a`).data).toMatchObject({ limit: YAML_LIMITS.maxBytes, line: 1, column: 1 });
  });

  it("counts UTF-8 bytes, not characters", () => {
    const text = `# ${"é".repeat(600_000)}\n`; // 600,000 characters, 1.2 MB
    expect(unsafe(text).message).toContain("at most 1048576 bytes");
  });

  it("accepts 64 levels of nesting and refuses 65", () => {
    const nest = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
    expect(() => read(nest(64))).not.toThrow();
    expect(unsafe(nest(65)).data).toMatchObject({ limit: YAML_LIMITS.maxDepth, line: 1, column: 65 });
  });

  it("refuses nesting deep enough to overflow the YAML reader's stack with UNSAFE_YAML", () => {
    for (const text of ["[".repeat(100_000), "- ".repeat(50_000)]) {
      expect(unsafe(text).data).toMatchObject({ file, limit: YAML_LIMITS.maxDepth });
    }
  });

  it("counts nesting after aliases are expanded", () => {
    const text = `a: &deep ${"[".repeat(40)}1${"]".repeat(40)}\nb: ${"[".repeat(30)}*deep${"]".repeat(30)}\n`;
    expect(unsafe(text).data).toMatchObject({ limit: YAML_LIMITS.maxDepth });
  });
});

// Reading is linear in the file's size: each input below is near the 1 MiB limit and reads in
// about a second, while the quadratic reading it replaced took minutes on it (well past the
// test timeout), so these fail by timing out if reading becomes quadratic again.
describe("large manifests within the limits", () => {
  /** A map of `count` keys, `kxxxx: 1` one a line (base-36 numbers, so each key differs). */
  const keys = (count: number) =>
    `${Array.from({ length: count }, (_, i) => `k${i.toString(36)}: 1`).join("\n")}\n`;

  it("reads a map of 100,000 keys, each checked against the others once", () => {
    const text = keys(100_000);
    expect(text.length).toBeLessThan(YAML_LIMITS.maxBytes);
    const value = read(text) as Record<string, number>;
    expect(Object.keys(value)).toHaveLength(100_000);
    expect(value.k255r).toBe(1);
  });

  it("still refuses a duplicate key among 100,000, at the second one", () => {
    const text = `${keys(100_000)}k1abc: 2\n`;
    expect(onlyIssue(() => read(text))).toMatchObject({
      line: 100_001,
      column: 1,
      message: "duplicate key 'k1abc': a key may appear once in a map",
    });
  });

  it("places each problem of a plugin.yaml of 100,000 unknown keys at its line", () => {
    const issues = issuesOf(() =>
      parsePluginManifest(`name: big\nversion: 1.0.0\n${keys(100_000)}`, { file }),
    );
    expect(issues).toHaveLength(100_000);
    expect(issues.at(-1)).toMatchObject({ line: 100_002, column: 1, path: ["k255r"] });
  });

  it("reports each of 150,000 unknown keys in a Markdown agent's front matter", () => {
    // More problems than a spread into push() can pass as arguments.
    const bare = Array.from({ length: 150_000 }, (_, i) => `k${i.toString(36)}:`).join("\n");
    const text = `---\nname: a\ninput: text\noutput: text\n${bare}\n---\nYou help.\n`;
    expect(text.length).toBeLessThan(YAML_LIMITS.maxBytes);
    const issues = issuesOf(() => parseAgentFile(text, { file: "agents/a.md" }));
    expect(issues).toHaveLength(150_000);
    expect(issues[0]).toMatchObject({ line: 5, column: 1, path: ["k0"] });
  });

  it("refuses 1 MiB of '[' at the 65th level, before building anything", () => {
    const error = unsafe("[".repeat(YAML_LIMITS.maxBytes));
    expect(error.data).toMatchObject({ line: 1, column: 65, limit: YAML_LIMITS.maxDepth });
    expect(error.message).toBe(
      "plugin.yaml:1:65: maps and lists nest deeper than 64 levels here; flatten the structure",
    );
  });

  it("refuses block maps nested 65 deep at the 65th, as flow lists", () => {
    const text = `${Array.from({ length: 65 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} 1\n`;
    expect(unsafe(text).data).toMatchObject({ line: 65, column: 65, limit: YAML_LIMITS.maxDepth });
  });
});

describe("syntax problems", () => {
  it("refuses a duplicate key at the second key's line and column", () => {
    expect(onlyIssue(() => read("a: 1\nb:\n  c: 1\n  c: 2\n"))).toMatchObject({
      file,
      line: 4,
      column: 3,
      message: "duplicate key 'c': a key may appear once in a map",
    });
  });

  it("refuses keys that read the same once made text (1 and '1')", () => {
    expect(onlyIssue(() => read("1: a\n'1': b\n"))).toMatchObject({ line: 2, column: 1 });
  });

  it("refuses a map or list used as a key", () => {
    expect(onlyIssue(() => read("? [a]\n: 1\n")).message).toContain(
      "a map key must be a plain word or string",
    );
  });

  it("reports a syntax error at its line and column", () => {
    const issue = onlyIssue(() => read("a: 1\nb: [1, 2\nc: 3\n"));
    expect(issue.line).toBeGreaterThanOrEqual(2);
    expect(issue.message).toMatch(/^YAML syntax: /);
  });

  it("refuses a file of two documents", () => {
    expect(onlyIssue(() => read("a: 1\n---\nb: 2\n"))).toMatchObject({
      line: 2,
      column: 1,
      message:
        "YAML syntax: the file holds more than one document (a second '---'); a manifest is one document, so remove the rest",
    });
  });
});

describe("positions", () => {
  const doc = parseSafeYaml("name: x\nagents:\n  - name: a\n    tools: [b, c]\n", { file, lineOffset: 10 });

  it("places a value and its key, shifted by the line offset", () => {
    expect(doc.locate(["agents", 0, "tools", 1])).toEqual({ line: 14, column: 16, found: true });
    expect(doc.locate(["agents", 0, "tools"], "key")).toEqual({ line: 14, column: 5, found: true });
    expect(doc.locate(["agents", 0, "tools"])).toEqual({ line: 14, column: 12, found: true });
  });

  it("places a missing path at its nearest ancestor", () => {
    expect(doc.locate(["agents", 0, "description"])).toEqual({ line: 13, column: 5, found: false });
  });
});
