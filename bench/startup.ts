// What oz0 costs to start: `oz0 --version` and `--help`, which load neither the runtime nor the
// SDK, against Node.js starting with nothing to do, a command that opens the runtime, and the
// demo's `oz0 run` on the offline test model. Each runs the built command (bin/oz0.js, as npm
// links it) as a new process, and is printed beside its start-up goal, as a multiple of
// `node -e ''` from the same run, with its CPU time (where Linux's /proc says it) and the number
// of module files it loads (Node's own aside).
// oz0 keeps compiled code in the user's cache (bin/oz0.js): the median is of warm starts, after
// a first run of each that fills it, the commands taken in turn round by round. Run it with
// `npm run bench`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../packages/cli/bin/oz0.js", import.meta.url));
const RUNS = 15;

const home = mkdtempSync(join(tmpdir(), "oz0-bench-startup-"));
const TRIAGE = fileURLToPath(new URL("../examples/support-triage", import.meta.url));
/** Each command, and its goal as a multiple of `node -e ''`, if it has one. */
const cases: [string, string[], number | undefined][] = [
  ["node -e ''", ["-e", ""], undefined],
  ["oz0 --version", [BIN, "--version"], 1.5],
  ["oz0 --help", [BIN, "--help"], 1.5],
  ["oz0 job search --help", [BIN, "job", "search", "--help"], undefined],
  ["oz0 plugin list (opens the runtime)", [BIN, "plugin", "list", "--home", home], undefined],
  [
    "oz0 run support-triage/triage (test model)",
    [BIN, "run", "support-triage/triage", "Ticket 7: charged twice", "--home", home, "--json"],
    3,
  ],
];

/** One command's runs: each wall time, and the CPU time they took together (`undefined` where the system does not say). */
interface Runs {
  readonly walls: number[];
  cpu: number | undefined;
}

/**
 * `RUNS` runs of each command's `node args`, the commands taken in turn within each round, so
 * that whatever else the machine does in the meantime falls on all of them alike and the ratios
 * of one run hold: the median wall time of each, and its mean CPU time (user and system, every
 * thread), in milliseconds.
 */
function timed(commands: readonly string[][]): { wall: number; cpu: number | undefined }[] {
  const runs: Runs[] = commands.map(() => ({ walls: [], cpu: 0 }));
  for (let round = 0; round < RUNS; round += 1) {
    commands.forEach((args, index) => {
      const measured = runs[index]!;
      const cpuBefore = childrenCpu();
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { stdio: "ignore" });
      measured.walls.push(performance.now() - started);
      const cpuAfter = childrenCpu();
      if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
      measured.cpu =
        cpuBefore === undefined || cpuAfter === undefined || measured.cpu === undefined
          ? undefined
          : measured.cpu + (cpuAfter - cpuBefore);
    });
  }
  return runs.map(({ walls, cpu }) => {
    walls.sort((a, b) => a - b);
    return { wall: walls[Math.floor(walls.length / 2)]!, cpu: cpu === undefined ? undefined : cpu / RUNS };
  });
}

/** Clock ticks per second, the unit of /proc's CPU times. */
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/**
 * The CPU time of this process's children that have ended, so far, in milliseconds (Linux's
 * `cutime` and `cstime`): steadier than wall time on a loaded machine, since it leaves out the
 * time a start spent waiting for a core. Read before and after each run, in clock ticks, so a
 * mean over `RUNS` runs is within a tick's rounding of each run's.
 */
function childrenCpu(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS;
  } catch {
    return undefined;
  }
}

const LOADED_MODULES = new URL("../packages/cli/test/fixtures/loaded-modules.mjs", import.meta.url).href;

/** How many module files one run of `node args` loads, Node's own aside. */
function modules(args: string[]): number {
  const result = spawnSync(process.execPath, ["--import", LOADED_MODULES, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  const listed = result.stderr.slice(result.stderr.lastIndexOf("loaded:\n") + "loaded:\n".length);
  return listed.split("\n").filter((line) => line !== "").length;
}

/** Runs oz0 once to set the home up, failing the bench if it fails. */
function oz0(...args: string[]): void {
  const result = spawnSync(process.execPath, [BIN, ...args, "--home", home], { stdio: "ignore" });
  if (result.status !== 0) throw new Error(`oz0 ${args.join(" ")} exited ${result.status}`);
}

try {
  oz0("plugin", "install", TRIAGE);
  oz0("policy", "allow", "support-triage/tickets.*");
  // A warm start: the first run of each fills the caches (compiled code, kept validators and declarations).
  for (const [, args] of cases) spawnSync(process.execPath, args, { stdio: "ignore" });
  console.log(`oz0's start, the median of ${RUNS} runs of each as a new process, the commands in turn\n`);
  console.log(`${"command".padEnd(44)}median ms  × node -e ''  CPU ms  × node CPU  modules  goal`);
  const all = timed(cases.map(([, args]) => args));
  const node = all[0]!;
  for (const [index, [label, args, goal]] of cases.entries()) {
    const measured = all[index]!;
    const times = measured.wall / node.wall;
    const cpu = measured.cpu === undefined ? "" : measured.cpu.toFixed(1);
    const cpuTimes =
      measured.cpu === undefined || node.cpu === undefined ? "" : (measured.cpu / node.cpu).toFixed(2);
    const verdict = goal === undefined ? "" : `≤ ${goal}× (${times <= goal ? "met" : "NOT met"})`;
    console.log(
      `${label.padEnd(44)}${measured.wall.toFixed(1).padStart(9)}  ${times.toFixed(2).padStart(11)}  ${cpu.padStart(6)}  ${cpuTimes.padStart(10)}  ${String(modules(args)).padStart(7)}  ${verdict}`,
    );
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
