import { describe, expect, it } from "vitest";
import { parseToolManifest } from "../../src/manifest/index.js";
import { fixture, onlyIssue } from "./helpers.js";

const file = "tools/memory-search.tool.yaml";
const parse = (text: string) => parseToolManifest(text, { file });
const HEAD = "kind: Tool\nname: memory_search\ndescription: Search.\n";

describe("kind: Tool manifests", () => {
  it("reads the sample memory_search tool", () => {
    expect(parse(fixture("memory-search.tool.yaml"))).toEqual({
      kind: "Tool",
      name: "memory_search",
      description: "Semantic memory search over the agent's notes.",
      spec: {
        entry: "tools/memory-search.js",
        function: "search",
        export: "search",
        parameters: {
          type: "object",
          properties: {
            query: { type: "string", description: "What to look for." },
            limit: { type: "integer", default: 5 },
          },
          required: ["query"],
        },
      },
    });
  });

  it("runs the default export and takes no arguments when those are left out", () => {
    expect(parse(`${HEAD}spec: { entry: tools/m.js, function: search }\n`).spec).toEqual({
      entry: "tools/m.js",
      function: "search",
      export: "default",
      parameters: { type: "object", properties: {} },
    });
  });

  it("refuses another kind", () => {
    expect(
      onlyIssue(() => parse(`${HEAD.replace("Tool", "Agent")}spec: { entry: m.js, function: f }\n`)).message,
    ).toBe("kind must be Tool");
  });

  it("refuses a tool name that is not a tool ID, and a bad function name", () => {
    expect(
      onlyIssue(() =>
        parse(`${HEAD.replace("memory_search", "memory.search")}spec: { entry: m.js, function: f }\n`),
      ).path,
    ).toEqual(["name"]);
    expect(onlyIssue(() => parse(`${HEAD}spec: { entry: m.js, function: a__b }\n`)).path).toEqual([
      "spec",
      "function",
    ]);
  });

  it("refuses parameters that are not an object schema", () => {
    expect(
      onlyIssue(() => parse(`${HEAD}spec: { entry: m.js, function: f, parameters: { type: string } }\n`)),
    ).toMatchObject({
      path: ["spec", "parameters", "type"],
      line: 4,
      column: 55,
    });
    expect(
      onlyIssue(() => parse(`${HEAD}spec: { entry: m.js, function: f, parameters: { properties: {} } }\n`))
        .message,
    ).toContain("add type: object");
  });

  it("refuses an entry outside the plugin and an export that is no JavaScript name", () => {
    expect(onlyIssue(() => parse(`${HEAD}spec: { entry: ../m.js, function: f }\n`)).path).toEqual([
      "spec",
      "entry",
    ]);
    expect(onlyIssue(() => parse(`${HEAD}spec: { entry: m.js, function: f, export: 'a-b' }\n`)).path).toEqual(
      ["spec", "export"],
    );
  });

  it("refuses a manifest without spec", () => {
    expect(onlyIssue(() => parse(HEAD))).toMatchObject({ path: ["spec"], message: "required, but missing" });
  });
});
