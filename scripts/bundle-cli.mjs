// Bundles the CLI's compiled modules (packages/cli/dist, from tsc -b) and commander into one
// file, dist/oz0.js, which bin/oz0.js runs: Node spends far more of `oz0 --help` finding,
// reading and linking fifty module files than running them, and one file it reads at once.
// The runtime, the SDK and the server stay packages of their own (one instance of each for
// the CLI and the plugins it loads); what the CLI imports only when a command runs (the
// server's client, remote/, which loads the SDK) is a chunk under dist/chunks, loaded then.
import { rm, writeFile } from "node:fs/promises";
import { build } from "rolldown";

const cli = new URL("../packages/cli/", import.meta.url);
// Chunks are named by their content: those of an earlier build go.
await rm(new URL("dist/chunks", cli), { recursive: true, force: true });
await rm(new URL("dist/help.json", cli), { force: true });

await build({
  input: { oz0: new URL("dist/main.js", cli).pathname },
  platform: "node",
  external: [/^node:/, /^@oz0\//],
  logLevel: "warn",
  output: {
    // In dist/, as dist/program.js is: program.ts reads ../package.json from its own module.
    dir: new URL("dist", cli).pathname,
    format: "esm",
    chunkFileNames: "chunks/[name]-[hash].js",
  },
});

// The help pages bin/oz0.js prints without loading commander (src/help-pages.ts), written after
// the bundle, so that a fresh bundle always has its pages.
const { helpPages } = await import(new URL("dist/help-pages.js", cli).href);
await writeFile(new URL("dist/help.json", cli), JSON.stringify(await helpPages()));
