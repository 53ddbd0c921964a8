// ARCHITECTURE.md says what exists: the packages it draws, each runtime folder it describes,
// and the runtime's layers, exactly as packages/runtime/layers.json (which `npm run deps`
// enforces) has them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const architecture = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
const layers: string[][] = JSON.parse(readFileSync(join(root, "packages/runtime/layers.json"), "utf8"));

function folders(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The runtime folders ARCHITECTURE.md describes: its "  - `name/`:" bullets. */
function describedFolders(): string[] {
  return [...architecture.matchAll(/^ {2}- `([a-z][a-z-]*)\/`:/gm)].map((match) => match[1] as string).sort();
}

/** The layers ARCHITECTURE.md lists under "Runtime layers", lowest first: "1. `store`, `cards`". */
function describedLayers(): string[][] {
  const section = architecture.split(/^### Runtime layers$/m)[1]?.split(/^#/m)[0] ?? "";
  return [...section.matchAll(/^\d+\. (.+)$/gm)].map((match) =>
    [...(match[1] as string).matchAll(/`([a-z][a-z-]*)`/g)].map((name) => name[1] as string),
  );
}

describe("ARCHITECTURE.md", () => {
  it("describes every runtime folder that exists, and none that does not", () => {
    expect(describedFolders()).toEqual(folders("packages/runtime/src"));
  });

  it("draws every package that exists, and none that does not", () => {
    const drawn = [...architecture.matchAll(/\(packages\/([a-z-]+)\)/g)].map((match) => match[1] as string);
    expect([...new Set(drawn)].sort()).toEqual(folders("packages"));
  });

  it("lists the runtime's layers exactly as the dependency check enforces them", () => {
    expect(describedLayers()).toEqual(layers);
  });

  it("places every runtime folder in exactly one layer", () => {
    const placed = layers.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual(folders("packages/runtime/src"));
  });
});
