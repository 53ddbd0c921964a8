// Bundles the CLI's compiled modules (packages/cli/dist, from tsc -b) with commander, the
// runtime, the server and the libraries a job runs on into dist/oz0.js and its chunks, which
// bin/oz0.js runs: Node spends far more of a short command finding, reading and linking module
// files (nine hundred for `oz0 run`) than running them, and a few files it reads at once.
// What a command imports only when it runs (the server, the MCP client, a provider's SDK) is a
// chunk under dist/chunks, or a package of node_modules loaded then.
//
// The SDK stays a package of its own, bundled by itself with zod, yaml and semver
// (scripts/bundle-sdk.mjs): plugins import it, and they and the runtime must share one instance
// of it. The runtime's YAML is the SDK's copy (`@oz0/sdk/internal`), so a command reads one;
// what it imports of semver itself is bundled here, a copy of its own: no SemVer object passes
// between the two. The runtime and the server are bundled together, so the
// CLI and `oz0 serve` share one runtime; their modules that find files next to themselves (the
// heartbeat thread, the harness bridge, the default plugins, their package.json) read
// `import.meta.url` as their own file's address in the package, not the bundle's, and
// `import.meta.oz0Build` as the build's identity. The other libraries stay packages too: they
// load only when a command uses them.
import { createHash } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const cli = new URL("../packages/cli/", import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
// Chunks are named by their content: those of an earlier build go.
await rm(new URL("dist/chunks", cli), { recursive: true, force: true });
await rm(new URL("dist/help.json", cli), { force: true });

/** The packages bundled in: the CLI's own, and the libraries every command that opens the runtime loads. */
const BUNDLED = new Set([
  "@oz0/runtime",
  "@oz0/server",
  "commander",
  "kysely",
  "ajv",
  "ajv-formats",
  "fast-uri",
  "fast-deep-equal",
  "json-schema-traverse",
  "croner",
  "semver",
]);

/** The package a bare specifier names (`@scope/name` or `name`). */
function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Each bundled package of oz0's own, by the folder its compiled modules are in. */
const OWN = [
  ["@oz0/runtime", `${root}packages/runtime/dist/`],
  ["@oz0/server", `${root}packages/server/dist/`],
];

/**
 * The build's identity: the SHA-256 of the compiled code it bundles and of the SDK's bundle, so
 * that what an older build kept of a plugin's declarations (runtime/src/bundles/declarations.ts)
 * is never taken for this one's.
 */
async function buildIdentity() {
  const hash = createHash("sha256");
  for (const dir of [...OWN.map(([, dir]) => dir), `${root}packages/sdk/dist/bundle/`]) {
    const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".js")).sort();
    for (const file of files)
      hash.update(`${relative(root, join(dir, file))}\0`).update(await readFile(join(dir, file)));
  }
  return hash.digest("hex").slice(0, 32);
}
const identity = JSON.stringify(await buildIdentity());

await build({
  input: { oz0: new URL("dist/main.js", cli).pathname },
  platform: "node",
  external: (specifier, _importer, resolved) => {
    if (resolved || specifier.startsWith(".") || specifier.startsWith("/")) return false;
    return specifier.startsWith("node:") || !BUNDLED.has(packageName(specifier));
  },
  logLevel: "warn",
  plugins: [
    {
      name: "oz0-module-meta",
      transform(code, id) {
        const own = OWN.find(([, dir]) => id.startsWith(dir));
        if (own === undefined || !(code.includes("import.meta.url") || code.includes("import.meta.oz0Build")))
          return null;
        const [name, dir] = own;
        const address = `new URL(${JSON.stringify(`./${relative(dir, id)}`)}, import.meta.resolve(${JSON.stringify(name)})).href`;
        return {
          code: code
            .replaceAll("import.meta.url", `(${address})`)
            .replaceAll("import.meta.oz0Build", identity),
          map: null,
        };
      },
    },
  ],
  output: {
    // In dist/, as dist/program.js is: program.ts reads ../package.json from its own module.
    dir: new URL("dist", cli).pathname,
    format: "esm",
    chunkFileNames: "chunks/[name]-[hash].js",
    comments: { legal: true, annotation: true, jsdoc: false },
    charset: "ascii",
  },
});

// The help pages bin/oz0.js prints without loading commander (src/help-pages.ts), written after
// the bundle, so that a fresh bundle always has its pages.
const { helpPages } = await import(new URL("dist/help-pages.js", cli).href);
await writeFile(new URL("dist/help.json", cli), JSON.stringify(await helpPages()));
