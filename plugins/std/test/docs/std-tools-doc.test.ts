// docs/std-tools.md is generated from the code; these tests keep the two equal and run its examples.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STD_TOOLS } from "../../src/index.js";
import { call, loadStd } from "../helpers.js";
import { renderStdToolsDoc } from "./render.js";

const DOC = new URL("../../../../docs/std-tools.md", import.meta.url);

describe("docs/std-tools.md", () => {
  it("is generated from the tools' metadata and input schemas (vitest -u rewrites it)", async () => {
    const host = await loadStd();
    await expect(await renderStdToolsDoc(host)).toMatchFileSnapshot(DOC.pathname);
  });

  it("has the spec's tool summary table, one row per std tool, matching the code's metadata", () => {
    const text = readFileSync(DOC, "utf8");
    const rows = [...text.matchAll(/^\| (\w+) \| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)].map(
      (m) => m.slice(1).map((cell) => cell.trim()),
    );
    expect(rows).toEqual(
      STD_TOOLS.map((info) => [
        info.specName,
        info.id,
        info.keyOperations,
        info.externalDeps,
        info.governance,
      ]),
    );
  });

  it("shows examples whose results are what the tools return", async () => {
    const host = await loadStd();
    let checked = 0;
    for (const info of STD_TOOLS) {
      for (const example of info.examples.filter((e) => e.checked)) {
        const name = `${info.id}.${example.function}`;
        expect(await call(host, name, { ...example.args }), name).toEqual(example.result);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it("gives every tool at least one example, and every example a function the tool has", async () => {
    const host = await loadStd();
    const text = readFileSync(DOC, "utf8");
    for (const info of STD_TOOLS) {
      expect(info.examples.length, info.id).toBeGreaterThan(0);
      for (const example of info.examples) {
        expect(text, `${info.id}.${example.function}`).toContain(`### \`${info.id}.${example.function}\``);
      }
      expect(host.registration("tool", info.id)).toBeDefined();
    }
  });
});
