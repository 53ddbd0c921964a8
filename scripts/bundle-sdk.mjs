// Bundles the SDK's compiled modules (packages/sdk/dist, from tsc -b) with zod, yaml and semver
// into dist/bundle: one file per entry of the package (`@oz0/sdk`, `/testing`, `/errors`,
// `/internal`) and the chunks they share. The package's exports point there, so the runtime (the
// CLI's bundle leaves the SDK out) and every plugin resolve `@oz0/sdk` to the same files: one
// instance, in a few files where Node found, read and linked about 240 (the SDK's, zod's, yaml's
// and semver's) at each start of a command that opens the runtime.
//
// A plugin that imports zod itself gets its own copy, as a plugin with its own node_modules did
// before: the SDK tells a zod schema by its shape, and zod keeps its registry and its config on
// globalThis, shared by every copy.
import { rm } from "node:fs/promises";
import { build } from "rolldown";

const sdk = new URL("../packages/sdk/", import.meta.url);
// Chunks are named by their content: those of an earlier build go.
await rm(new URL("dist/bundle", sdk), { recursive: true, force: true });

await build({
  input: {
    index: new URL("dist/index.js", sdk).pathname,
    testing: new URL("dist/testing/index.js", sdk).pathname,
    errors: new URL("dist/errors/index.js", sdk).pathname,
    internal: new URL("dist/internal/index.js", sdk).pathname,
  },
  platform: "node",
  external: (specifier) => specifier.startsWith("node:"),
  logLevel: "warn",
  output: {
    dir: new URL("dist/bundle", sdk).pathname,
    format: "esm",
    chunkFileNames: "chunks/[name]-[hash].js",
    comments: { legal: true, annotation: true, jsdoc: false },
    charset: "ascii",
  },
});
