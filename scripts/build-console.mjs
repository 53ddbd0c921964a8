// Builds the web console (packages/console, vite build) when its dist/ is missing or older than
// its sources: `oz0 serve` serves the built assets, and the console's browser tests drive them,
// so `npm test` on a fresh clone must pass without `npm run build` first. Vitest runs it as a
// global setup; it is quick when the build is current (a few stat calls).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const consoleDir = join(root, "packages", "console");
const vite = join(root, "node_modules", "vite", "bin", "vite.js");

function newest(path) {
  if (!existsSync(path)) return 0;
  if (statSync(path).isFile()) return statSync(path).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Whether the console's build is missing or older than what it is built from. */
export function consoleStale() {
  const built = join(consoleDir, "dist", "index.html");
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newest(join(consoleDir, "src")),
    newest(join(consoleDir, "index.html")),
    newest(join(consoleDir, "vite.config.ts")),
  );
  return sources > statSync(built).mtimeMs;
}

export function buildConsole() {
  if (!consoleStale()) return false;
  const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "error"], {
    cwd: consoleDir,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(
      `building the console failed (vite build exited ${result.status}):\n${result.stdout}${result.stderr}`,
    );
  }
  return true;
}

/** Vitest's global setup. */
export function setup() {
  buildConsole();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildConsole();
