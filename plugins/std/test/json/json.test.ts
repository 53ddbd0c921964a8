// The json tool: the spec's examples for parse, format, get and merge, paths that miss, and the size bounds.
import { describe, expect, it } from "vitest";
import { MAX_JSON_CHARS, MAX_JSON_DEPTH, MAX_OUTPUT_CHARS } from "../../src/json/index.js";
import { call, callError, loadStd } from "../helpers.js";

describe("json.parse", () => {
  it("parses JSON text, as the spec's example", async () => {
    const host = await loadStd();
    expect(await call(host, "json.parse", { data: '{"a": 1}' })).toEqual({ status: "ok", result: { a: 1 } });
  });

  it("refuses invalid JSON, saying what is wrong", async () => {
    const host = await loadStd();
    const error = await callError(host, "json.parse", { data: '{"a": }' });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^data: not valid JSON: Unexpected token/);
    expect(error.data).toEqual({
      issues: [{ path: "data", message: expect.stringContaining("not valid JSON") }],
    });
  });

  it(`refuses JSON text longer than ${MAX_JSON_CHARS} characters`, async () => {
    const host = await loadStd();
    const error = await callError(host, "json.parse", { data: `"${"a".repeat(MAX_JSON_CHARS)}"` });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("data");
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels, without overflowing the stack`, async () => {
    const host = await loadStd();
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const error = await callError(host, "json.parse", { data: deep });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "data depth", max: MAX_JSON_DEPTH, unit: "levels" });
    const fits = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    await expect(call(host, "json.parse", { data: fits })).resolves.toMatchObject({ status: "ok" });
  });
});

describe("json.format", () => {
  it("pretty-prints with two spaces, as the spec's example", async () => {
    const host = await loadStd();
    expect(await call(host, "json.format", { data: '{"a":1,"b":2}' })).toEqual({
      status: "ok",
      result: '{\n  "a": 1,\n  "b": 2\n}',
    });
  });

  it("takes another indent, and indent 0 writes one line", async () => {
    const host = await loadStd();
    expect(await call(host, "json.format", { data: '{"a": [1, 2]}', indent: 4 })).toEqual({
      status: "ok",
      result: '{\n    "a": [\n        1,\n        2\n    ]\n}',
    });
    expect(await call(host, "json.format", { data: '{ "a" : [1, 2] }', indent: 0 })).toEqual({
      status: "ok",
      result: '{"a":[1,2]}',
    });
  });

  it(`refuses output longer than ${MAX_OUTPUT_CHARS} characters before building it`, async () => {
    const host = await loadStd();
    // 90 levels deep with 100,000 numbers at the bottom: 1 MB of text, ~180 MB pretty-printed.
    const data = `${"[".repeat(90)}${Array(100_000).fill(1).join(",")}${"]".repeat(90)}`;
    const error = await callError(host, "json.format", { data, indent: 8 });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "output length", max: MAX_OUTPUT_CHARS, unit: "characters" });
  });
});

describe("json.get", () => {
  const doc = JSON.stringify({ user: { name: "Alice", tags: ["a", "b"] }, items: [{ id: 7 }, { id: 8 }] });

  it("reads a dot path such as user.name, as the spec's example", async () => {
    const host = await loadStd();
    expect(await call(host, "json.get", { data: '{"user": {"name": "Alice"}}', path: "user.name" })).toEqual({
      status: "ok",
      result: "Alice",
    });
  });

  it("reads array items by index, as in items.0, and the bracket form items[1].id", async () => {
    const host = await loadStd();
    expect(await call(host, "json.get", { data: doc, path: "items.0" })).toEqual({
      status: "ok",
      result: { id: 7 },
    });
    expect(await call(host, "json.get", { data: doc, path: "items[1].id" })).toEqual({
      status: "ok",
      result: 8,
    });
    expect(await call(host, "json.get", { data: doc, path: "$.user.tags.1" })).toEqual({
      status: "ok",
      result: "b",
    });
  });

  it("returns the whole document for an empty path", async () => {
    const host = await loadStd();
    expect(await call(host, "json.get", { data: "[1]", path: "" })).toEqual({ status: "ok", result: [1] });
  });

  it("refuses a missing key, listing the keys found where the path stopped", async () => {
    const host = await loadStd();
    const error = await callError(host, "json.get", { data: doc, path: "user.age" });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("path: 'user.age' not found: 'user' has no key 'age' (its keys: name, tags).");
  });

  it("refuses an index past the end of an array, giving its length", async () => {
    const host = await loadStd();
    const error = await callError(host, "json.get", { data: doc, path: "items.5" });
    expect(error.message).toContain("'items' is an array of 2 (indexes 0 to 1)");
  });

  it("refuses a path that goes on past a string", async () => {
    const host = await loadStd();
    const error = await callError(host, "json.get", { data: doc, path: "user.name.first" });
    expect(error.message).toContain("'user.name' is a string, which has no 'first'");
  });

  it("does not read inherited properties such as __proto__ or constructor", async () => {
    const host = await loadStd();
    expect((await callError(host, "json.get", { data: "{}", path: "constructor" })).code).toBe(
      "INVALID_INPUT",
    );
    expect((await callError(host, "json.get", { data: "{}", path: "__proto__" })).code).toBe("INVALID_INPUT");
  });
});

describe("json.merge", () => {
  it("merges two objects, as the spec's example", async () => {
    const host = await loadStd();
    expect(await call(host, "json.merge", { data: '{"a": 1}', merge_with: '{"b": 2}' })).toEqual({
      status: "ok",
      result: { a: 1, b: 2 },
    });
  });

  it("lets merge_with's keys win, replacing nested objects unless deep is true", async () => {
    const host = await loadStd();
    const data = '{"db": {"host": "a", "port": 1}, "x": 1}';
    const mergeWith = '{"db": {"port": 2}, "x": 2}';
    expect(await call(host, "json.merge", { data, merge_with: mergeWith })).toEqual({
      status: "ok",
      result: { db: { port: 2 }, x: 2 },
    });
    expect(await call(host, "json.merge", { data, merge_with: mergeWith, deep: true })).toEqual({
      status: "ok",
      result: { db: { host: "a", port: 2 }, x: 2 },
    });
  });

  it("keeps a __proto__ key as a plain key instead of changing the result's prototype", async () => {
    const host = await loadStd();
    const result = (await call(host, "json.merge", {
      data: '{"a": {}}',
      merge_with: '{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}}}',
      deep: true,
    })) as { result: Record<string, unknown> };
    expect(Object.getPrototypeOf(result.result)).toBe(Object.prototype);
    expect(Object.hasOwn(result.result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses to merge anything but two objects", async () => {
    const host = await loadStd();
    const error = await callError(host, "json.merge", { data: "[1]", merge_with: "{}" });
    expect(error.message).toBe("data: merge needs a JSON object (text starting with '{').");
    const other = await callError(host, "json.merge", { data: "{}", merge_with: "2" });
    expect(other.message).toContain("merge_with");
  });
});
