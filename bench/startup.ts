// What oz0 costs to start: `oz0 --version` and `--help`, which load neither the runtime nor the
// SDK, against Node.js starting with nothing to do, and a command that opens the runtime. Each
// runs the built command (bin/oz0.js, as npm links it) as a new process. Run it with
// `npm run bench`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../packages/cli/bin/oz0.js", import.meta.url));
const RUNS = 15;

const home = mkdtempSync(join(tmpdir(), "oz0-bench-startup-"));
const cases: [string, string[]][] = [
  ["node -e ''", ["-e", ""]],
  ["oz0 --version", [BIN, "--version"]],
  ["oz0 --help", [BIN, "--help"]],
  ["oz0 job search --help", [BIN, "job", "search", "--help"]],
  ["oz0 plugin list (opens the runtime)", [BIN, "plugin", "list", "--home", home]],
];

/** The median wall time of `RUNS` runs of `node args`, in milliseconds. */
function median(args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: "ignore" });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

try {
  console.log(`oz0's start, the median of ${RUNS} runs of each as a new process\n`);
  console.log("command                               median ms");
  for (const [label, args] of cases) console.log(`${label.padEnd(38)}${median(args).toFixed(1).padStart(9)}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
