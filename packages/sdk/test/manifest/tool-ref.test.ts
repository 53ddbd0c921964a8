// References to kind: Tool manifests, `<plugin>:tools/<file>.tool.yaml`, and an agent's tools:
// naming them as text or as `{ ref: … }` (the spec's `spec.tools[].ref`).
import { describe, expect, it } from "vitest";
import {
  type AgentDefinition,
  formatToolRef,
  isToolRef,
  parseAgentFile,
  parseToolRef,
  toolRefProblem,
} from "../../src/manifest/index.js";
import { onlyIssue } from "./helpers.js";

const agent = (rest: string): AgentDefinition =>
  parseAgentFile(`name: a\n${rest}`, { file: "agents/a.yaml" }).definition;

describe("tool manifest references", () => {
  it("reads the spec's example samples:tools/memory-search.tool.yaml as a plugin and a path", () => {
    const ref = parseToolRef("samples:tools/memory-search.tool.yaml");
    expect(ref).toEqual({ plugin: "samples", path: "tools/memory-search.tool.yaml" });
    expect(formatToolRef(ref!)).toBe("samples:tools/memory-search.tool.yaml");
    expect(parseToolRef("samples:tools/memory-search.tool.yml")?.path).toBe("tools/memory-search.tool.yml");
  });

  it("tells a reference from an address by its ':', which no address has", () => {
    expect(isToolRef("samples:tools/web-search.tool.yaml")).toBe(true);
    expect(isToolRef("samples/web_search.search")).toBe(false);
    expect(parseToolRef("samples/web_search.search")).toBeUndefined();
  });

  it.each([
    ["Samples:tools/a.tool.yaml", "plugin name 'Samples'"],
    ["samples:web-search.tool.yaml", "names 'web-search.tool.yaml', which is not a kind: Tool manifest"],
    ["samples:tools/web-search.yaml", "names 'tools/web-search.yaml', which is not a kind: Tool manifest"],
    ["samples:tools/../x.tool.yaml", "names 'tools/../x.tool.yaml'"],
    ["samples:tools/sub/x.tool.yaml", "names 'tools/sub/x.tool.yaml'"],
    ["a:b:tools/x.tool.yaml", "is not a tool manifest reference"],
  ])("refuses %s", (text, message) => {
    expect(toolRefProblem(text)).toContain(message);
    expect(parseToolRef(text)).toBeUndefined();
  });
});

describe("an agent's tools: naming manifests", () => {
  it("takes a reference as text or as { ref }, and keeps both as the text", () => {
    const tools = agent(
      "tools:\n  - ref: samples:tools/memory-search.tool.yaml\n  - samples:tools/web-search.tool.yaml\n  - tickets.lookup\n",
    ).tools;
    expect(tools).toEqual([
      "samples:tools/memory-search.tool.yaml",
      "samples:tools/web-search.tool.yaml",
      "tickets.lookup",
    ]);
  });

  it("refuses a malformed reference at its place in the list", () => {
    expect(
      onlyIssue(() => agent("tools:\n  - tickets.lookup\n  - ref: samples:memory.yaml\n")),
    ).toMatchObject({
      path: ["tools", 1],
      message:
        "'samples:memory.yaml' names 'memory.yaml', which is not a kind: Tool manifest of the plugin: write <plugin>:tools/<file>.tool.yaml, such as samples:tools/memory-search.tool.yaml",
    });
  });

  it("refuses a map other than { ref }, and a number, saying what an entry is", () => {
    expect(
      onlyIssue(() => agent("tools:\n  - { ref: samples:tools/a.tool.yaml, as: search }\n")).message,
    ).toBe(
      "a tools entry is an address such as tickets.lookup or github/oz0_github.get_file, or { ref: <plugin>:tools/<file>.tool.yaml }; not a map other than { ref: … }",
    );
    expect(onlyIssue(() => agent("tools: [7]\n")).message).toContain("not the number 7");
  });

  it("still refuses an address with two slashes with the address message", () => {
    expect(onlyIssue(() => agent("tools: [github/oz0_github/get_file]\n")).message).toBe(
      "'github/oz0_github/get_file' is not a valid tool function (<tool>.<function> or <plugin>/<tool>.<function>): write a bare name, or <plugin>/<name> with letters, digits, '.', '_', '-' (and '*' in patterns)",
    );
  });
});
