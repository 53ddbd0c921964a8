// Importing @oz0/sdk must stay cheap and safe for plugin authors: no database drivers, no
// model SDKs, no process or file system access from the SDK's own code.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const srcDir = new URL("../../src/", import.meta.url).pathname;
const ALLOWED_PACKAGES = new Set(["zod", "yaml", "semver", "node:crypto"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the SDK's entry", () => {
  it("imports only its own modules, zod, yaml, semver and node:crypto", () => {
    const outside: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const specifier = match[1]!;
        if (!specifier.startsWith(".") && !ALLOWED_PACKAGES.has(specifier.split("/")[0]!)) {
          outside.push(`${file.slice(srcDir.length)}: ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });
});
