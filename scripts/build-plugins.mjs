// Builds the first-party plugins (plugins/*) whose dist/ is missing or older than their
// sources. oz0 loads a plugin's code from its plugin.yaml `main:` (dist/index.js) with import(),
// so tests that install std or samples need the build, and `npm test` on a fresh clone must
// pass without `npm run build` first. Vitest runs it as a global setup; it is quick when
// everything is built (a few stat calls). It bundles the SDK again after a compile of it, as
// `npm run build` does.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** The newest modification time of the files under `dir`, 0 when there are none. */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** The plugin folders whose build is missing or older than their src/ or tsconfig.json. */
export function stalePlugins() {
  const plugins = join(root, "plugins");
  return readdirSync(plugins, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(plugins, entry.name, "tsconfig.json")))
    .map((entry) => join(plugins, entry.name))
    .filter((dir) => {
      const built = join(dir, "tsconfig.tsbuildinfo");
      if (!existsSync(built) || !existsSync(join(dir, "dist", "index.js"))) return true;
      const sources = Math.max(newest(join(dir, "src")), statSync(join(dir, "tsconfig.json")).mtimeMs);
      return sources > statSync(built).mtimeMs;
    });
}

/** Builds the stale plugins with `tsc -b`; throws, with the compiler's output, when one has no dist after. */
export function buildStalePlugins() {
  const stale = stalePlugins();
  if (stale.length === 0) return [];
  const result = spawnSync(process.execPath, [tsc, "-b", ...stale], { cwd: root, encoding: "utf8" });
  const missing = stale.filter((dir) => !existsSync(join(dir, "dist", "index.js")));
  // tsc -b emits despite type errors (another package's, mid-edit); only a missing build stops the tests.
  if (result.status !== 0 && missing.length > 0) {
    throw new Error(
      `building ${missing.join(", ")} failed (tsc -b exited ${result.status}):\n${result.stdout}${result.stderr}`,
    );
  }
  return stale;
}

/**
 * Bundles the SDK again (scripts/bundle-sdk.mjs) when its compile is newer than its bundle: a
 * plugin's `tsc -b` above compiles the SDK it references, and the built bin the tests start
 * would then send the SDK's imports to its compiled modules (bin/oz0.js) instead of the bundle.
 * Says whether it bundled; `sdk` and `bundle` are the tests'.
 */
export function bundleStaleSdk(sdk = join(root, "packages", "sdk"), bundle = bundleSdk) {
  const compiled = join(sdk, "tsconfig.tsbuildinfo");
  const bundled = join(sdk, "dist", "bundle", "index.js");
  if (!existsSync(compiled)) return false;
  if (existsSync(bundled) && statSync(bundled).mtimeMs >= statSync(compiled).mtimeMs) return false;
  bundle();
  return true;
}

function bundleSdk() {
  const result = spawnSync(process.execPath, [join(root, "scripts", "bundle-sdk.mjs")], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`bundling the SDK failed:\n${result.stdout}${result.stderr}`);
}

/** Vitest's global setup. */
export function setup() {
  buildStalePlugins();
  bundleStaleSdk();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildStalePlugins();
  bundleStaleSdk();
}
