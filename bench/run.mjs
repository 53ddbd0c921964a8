// Runs the benchmarks against the TypeScript sources: Node strips the types, and the resolve
// hook the runtime's tests use maps `.js` imports to the `.ts` files.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const hook = fileURLToPath(new URL("../packages/runtime/test/store/fixtures/resolve-ts.ts", import.meta.url));
// A job step's cost as an embedder pays it (and whether it stays flat in a 1,000-step job), a
// job of std tools on the test model, the governed dispatch path's cost per call, a budget's read
// of the tenant's totals as its period fills, the call scope's cost per call, a step on runtime
// openai-agents beside oz0's loop,
// oz0's start, the time to read a large manifest, and StartJob through the HTTP server beside
// the same job embedded.
for (const script of [
  "./engine.ts",
  "./std-job.ts",
  "./governance.ts",
  "./usage.ts",
  "./scope.ts",
  "./openai-agents.ts",
  "./startup.ts",
  "./manifest.ts",
  "./server.mjs",
]) {
  const result = spawnSync(
    process.execPath,
    [
      "--conditions=@oz0/source",
      "--no-warnings",
      "--import",
      hook,
      fileURLToPath(new URL(script, import.meta.url)),
    ],
    { cwd: root, stdio: "inherit" },
  );
  if (result.status !== 0) {
    process.exitCode = result.status ?? 1;
    break;
  }
  console.log("");
}
