// How long a large plugin.yaml takes to read, install-side (the SDK's parser: safe YAML, the
// schema check and the place of every problem) and lint-side (a whole lint of a folder that
// holds it), for the shapes that once took minutes: a map of many keys, a long list, a list of
// maps, deep nesting. Each shape at a quarter, a half and all of the 1 MiB limit: the time per
// KiB stays flat when reading is linear. Run it with `npm run bench`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lintPlugin } from "@oz0/runtime";
import { parsePluginManifest } from "@oz0/sdk";
import { YAML_LIMITS } from "@oz0/sdk/internal";

const HEAD = "name: big\nversion: 1.0.0\n";
const DEEP = "nested '['";

/** Each shape: a plugin.yaml of about `bytes` bytes. */
const SHAPES: Record<string, (bytes: number) => string> = {
  "map of keys": (bytes) => HEAD + lines(bytes, (i) => `k${i.toString(36)}: 1`),
  "block list": (bytes) => `${HEAD}capabilities:\n${lines(bytes, () => "  - tool")}`,
  "flow list": (bytes) =>
    `${HEAD}capabilities: [${Array.from({ length: Math.floor(bytes / 5) - 20 }, () => "tool").join(",")}]\n`,
  "list of maps": (bytes) => `${HEAD}tools:\n${lines(bytes, (i) => `  - id: t${i.toString(36)}`)}`,
  [DEEP]: (bytes) => "[".repeat(bytes),
};

const ROUNDS = 3;

/** Lines from `line(0)` on, as many as fit in `bytes` after the head. */
function lines(bytes: number, line: (i: number) => string): string {
  const written: string[] = [];
  let size = HEAD.length;
  for (let i = 0; ; i++) {
    const next = `${line(i)}\n`;
    if (size + next.length > bytes) break;
    written.push(next);
    size += next.length;
  }
  return written.join("");
}

/** The best of a few rounds of `work`, in ms. */
async function best(work: () => unknown): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "oz0-bench-manifest-"));
  try {
    const dir = join(work, "big");
    await mkdir(dir);
    console.log("reading a large plugin.yaml: the best of 3 rounds, and the time per KiB\n");
    console.log("shape          KiB   parse ms  µs/KiB   lint ms  µs/KiB");
    for (const [shape, make] of Object.entries(SHAPES)) {
      // Deep nesting is refused at its 65th level, whatever follows: one size says so.
      const fractions = shape === DEEP ? [1] : [0.25, 0.5, 0.99];
      for (const fraction of fractions) {
        const text = make(Math.floor(YAML_LIMITS.maxBytes * fraction));
        const kib = Buffer.byteLength(text) / 1024;
        await writeFile(join(dir, "plugin.yaml"), text);
        const parse = await best(() => {
          try {
            parsePluginManifest(text, { file: "plugin.yaml" });
          } catch {
            // Most of these are refused (unknown keys, too deep): the time to say so is measured.
          }
        });
        const lint = await best(() => lintPlugin(dir, { writeListing: false }));
        const per = (ms: number) => ((ms * 1000) / kib).toFixed(0).padStart(7);
        console.log(
          `${shape.padEnd(13)} ${kib.toFixed(0).padStart(5)} ${parse.toFixed(0).padStart(9)} ${per(parse)} ${lint.toFixed(0).padStart(9)} ${per(lint)}`,
        );
      }
    }
    console.log("\nThe time per KiB stays flat from a quarter of the limit to all of it: reading is linear.");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
