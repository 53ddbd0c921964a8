// Plugins' runtimes in scale-out, with real `oz0 node` processes on PostgreSQL: two nodes run a
// plugin's runtime in exactly one of them; when that node is killed outright its lease lapses and
// the other takes the runtime over; a node drained with SIGTERM stops it. Each wait is for an
// outcome (a status, a ledger line), never for a length of time.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { oz0, tempHome } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
const FIXTURE = join(import.meta.dirname, "fixtures/ledger-runtime");
const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");

let home: string;
let cleanup: (() => Promise<void>) | undefined;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = (await postgres[0]!.fresh()).databaseUrl!;
  process.env.OZ0_DATABASE_URL = databaseUrl;
  // The nodes here are the test's own: the home's commands stay embedded in the second pass.
  ({ home, cleanup } = await tempHome({ embedded: true }));
});
afterAll(async () => {
  delete process.env.OZ0_DATABASE_URL;
  await cleanup?.();
  await disposeFixtures(postgres);
});

const run = (...args: string[]) => oz0([...args, "--home", home]);

function startNode(): ChildProcess {
  return spawn(
    process.execPath,
    [
      "--conditions=@oz0/source",
      "--import",
      RESOLVE_TS,
      MAIN,
      "node",
      "--json",
      "--grace",
      "0",
      // Long enough that a node slowed by a loaded machine still renews in time.
      "--lease",
      "4",
      "--home",
      home,
    ],
    { env: { ...process.env, OZ0_DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** The node ID a node prints once it started. */
function started(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (text) => {
      const value = JSON.parse(text) as { event?: string; worker?: string };
      if (value.event === "started" && typeof value.worker === "string") {
        lines.close();
        resolve(value.worker);
      }
    });
    child.once("exit", (code) => reject(new Error(`the node exited (${code}) before it started`)));
  });
}

interface RuntimeStatus {
  state: string;
  node: string | null;
}

async function runtimeStatus(): Promise<RuntimeStatus | undefined> {
  const shown = await run("--json", "plugin", "status", "ledger-runtime");
  return shown.json<{ runtimes: RuntimeStatus[] }[]>()[0]?.runtimes[0];
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ledgerLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : [];
}

describe("plugin runtimes across oz0 nodes on PostgreSQL", () => {
  it("one node of two runs the runtime; when it is killed the other takes it over, and a drain stops it", async () => {
    const ledger = join(home, "ledger.txt");
    expect((await run("plugin", "install", FIXTURE)).code).toBe(0);
    expect((await run("plugin", "config", "ledger-runtime", "--set", JSON.stringify({ ledger }))).code).toBe(
      0,
    );
    const nodes = [startNode(), startNode()];
    try {
      const ids = await Promise.all(nodes.map(started));
      const first = await until(runtimeStatus, (status) => status?.state === "running");
      const holder = ids.indexOf(first!.node!);
      expect(holder).toBeGreaterThanOrEqual(0);
      const killed = nodes[holder]!;
      const survivor = nodes[1 - holder]!;
      expect(ledgerLines(ledger)).toEqual([`start ${killed.pid}`]);

      const exited = once(killed, "exit");
      killed.kill("SIGKILL");
      await exited;
      const moved = await until(
        runtimeStatus,
        (status) => status?.state === "running" && status.node === ids[1 - holder],
      );
      expect(moved?.node).toBe(ids[1 - holder]);
      // Killed outright, the first node never stopped it; the survivor started it once, and never
      // while the first held it.
      expect(ledgerLines(ledger)).toEqual([`start ${killed.pid}`, `start ${survivor.pid}`]);

      const drained = once(survivor, "exit");
      survivor.kill("SIGTERM");
      expect(await drained).toEqual([0, null]);
      expect(ledgerLines(ledger)).toEqual([
        `start ${killed.pid}`,
        `start ${survivor.pid}`,
        `stop ${survivor.pid}`,
      ]);
      expect(await runtimeStatus()).toMatchObject({ state: "stopped", node: null });
    } finally {
      for (const node of nodes) if (node.exitCode === null && node.signalCode === null) node.kill("SIGKILL");
    }
  });
});
