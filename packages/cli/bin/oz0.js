#!/usr/bin/env node
// The oz0 executable, as npm links it (node_modules/.bin/oz0, npx oz0). It is plain JavaScript
// in the repository, so the link exists from `npm ci` on, before anything is built. It checks
// the Node.js version before loading anything else, since the rest of oz0 uses built-ins
// (node:sqlite) that older versions do not have, and says what to do when oz0 is not built.
import { existsSync, readFileSync, statSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

const MIN_NODE_MAJOR = 22;
const major = Number(process.versions.node.split(".")[0]);
if (major < MIN_NODE_MAJOR) {
  process.stderr.write(
    `oz0 needs Node.js ${MIN_NODE_MAJOR} or later (24 LTS recommended); this is Node.js ${process.versions.node} at ${process.execPath}.\n` +
      "Run oz0 through npm (npx oz0 …, npm run …), which puts the workspace's pinned Node 24 first on PATH.\n",
  );
  process.exit(1);
}
const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("oz0 is not built yet: run npm run build in the oz0 workspace, then try again.\n");
  process.exit(1);
}
// The version alone is the package's: printed here, oz0 starts as fast as Node does.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${version}\n`);
} else {
  // The build bundles the CLI's modules with the runtime's and the server's (scripts/bundle-cli.mjs)
  // into a few files, which Node loads far sooner than the hundreds they are made of. A compile of
  // any of the three alone (tsc -b) after it leaves the bundle older than the compiler's record of
  // that build, and the modules themselves run.
  const bundle = new URL("../dist/oz0.js", import.meta.url);
  const fresh = !olderThanCompile(
    bundle,
    [
      "../tsconfig.tsbuildinfo",
      "../../runtime/tsconfig.tsbuildinfo",
      "../../server/tsconfig.tsbuildinfo",
    ].map((record) => new URL(record, import.meta.url)),
  );
  if (!(fresh && printedStoredHelp(argv))) {
    // Node keeps the compiled code of every module oz0 loads (a thousand for a command that opens
    // the runtime), so that the next start reads it instead of compiling the sources again. The
    // cache is the user's own, not the shared temporary folder's, since whoever can write it
    // chooses the code that runs; Node checks each entry against its source and compiles again
    // when they differ, and a cache it cannot write costs nothing but the saving.
    // NODE_DISABLE_COMPILE_CACHE=1 turns it off.
    try {
      const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
      module.enableCompileCache?.(join(cacheHome, "oz0", "node-compile-cache"));
    } catch {
      // No cache: oz0 starts as it would without one.
    }
    // `@oz0/sdk` is the SDK's bundle (scripts/bundle-sdk.mjs), for the runtime and for plugins
    // alike. A compile of the SDK alone (tsc -b) after it leaves the bundle older than the
    // compiler's record of that build, and every import of the SDK in this process goes to its
    // compiled modules instead: still one instance, the runtime's and the plugins'.
    const sdk = new URL("../../sdk/", import.meta.url);
    const sdkCompiled = new URL("tsconfig.tsbuildinfo", sdk);
    if (existsSync(sdkCompiled) && olderThanCompile(new URL("dist/bundle/index.js", sdk), [sdkCompiled])) {
      module.registerHooks?.({
        resolve(specifier, context, next) {
          if (specifier !== "@oz0/sdk" && !specifier.startsWith("@oz0/sdk/")) return next(specifier, context);
          const entry = specifier === "@oz0/sdk" ? "index" : `${specifier.slice("@oz0/sdk/".length)}/index`;
          return { url: new URL(`dist/${entry}.js`, sdk).href, format: "module", shortCircuit: true };
        },
      });
    }
    await import((fresh ? bundle : main).href);
  }
}

/** Whether `bundle` is missing or older than any of the compiler's `records` (those that exist). */
function olderThanCompile(bundle, records) {
  const bundled = statSync(bundle, { throwIfNoEntry: false });
  return (
    bundled === undefined ||
    records.some((record) => {
      const compiled = statSync(record, { throwIfNoEntry: false });
      return compiled !== undefined && compiled.mtimeMs > bundled.mtimeMs;
    })
  );
}

/**
 * Prints the help page the build stored for this command line (src/help-pages.ts), if it stored
 * one and the page fits the terminal, without loading commander and the command tree; says
 * whether it did.
 */
function printedStoredHelp(argv) {
  // Only a line that can ask for help reads the pages: a bare group (`oz0 job`), or one with help in it.
  if (argv.length > 1 && !argv.includes("--help") && !argv.includes("-h") && !argv.includes("help"))
    return false;
  let stored;
  try {
    stored = JSON.parse(readFileSync(new URL("../dist/help.json", import.meta.url), "utf8"));
  } catch {
    return false;
  }
  const line = argv.join("\0");
  if (!Object.hasOwn(stored.lines, line)) return false;
  const [code, fd, page] = stored.lines[line];
  const stream = fd === 1 ? process.stdout : process.stderr;
  // Commander wraps help to a narrower terminal's width, and the pages are wrapped to theirs.
  if (stream.isTTY && stream.columns < stored.width) return false;
  stream.write(stored.pages[page]);
  process.exitCode = code;
  return true;
}
