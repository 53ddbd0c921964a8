// `oz0 plugin status [NAME]`: each admin spec's live status() and each runtime's state. The
// embedded CLI runs no runtime (a one-shot command starts nothing long-lived); through a server,
// the server's worker runs it.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, THROUGH_SERVER, tempHome } from "./run-cli.js";

const FIXTURE = join(import.meta.dirname, "../../runtime/test/fixtures/plugin-runtimes/beacon");

let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const installed = await run("plugin", "install", FIXTURE);
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(async () => {
  await cleanup();
});

const run = (...args: string[]) => oz0([...args, "--home", home]);

interface StatusJson {
  plugin: string;
  admin: { name: string; state: string; message?: string; details?: Record<string, unknown> }[];
  runtimes: {
    runtime: string;
    state: string;
    restarts: number;
    lastError: string | null;
    node: string | null;
  }[];
}

async function status(): Promise<StatusJson[]> {
  const shown = await run("--json", "plugin", "status", "beacon");
  expect(shown.code, shown.stderr).toBe(0);
  return shown.json<StatusJson[]>();
}

describe("oz0 plugin status", () => {
  it("shows what the admin spec's status() says now, with the operator's config and its secrets masked", async () => {
    const set = await run(
      "plugin",
      "config",
      "beacon",
      "--set",
      '{"greeting":"ahoy","token":"tok-3Fd8Sa1Qw6"}',
    );
    expect(set.code, set.stderr).toBe(0);
    const [beacon] = await status();
    expect(beacon?.admin).toEqual([
      { name: "status", state: "ok", message: "greeting ahoy", details: { token: "[redacted]" } },
    ]);
    const text = await run("plugin", "status", "beacon");
    expect(text.stdout).toContain("status: ok · greeting ahoy");
    expect(text.stdout).not.toContain("tok-3Fd8Sa1Qw6");
  });

  it(
    THROUGH_SERVER
      ? "through a server, the server's worker runs the plugin's runtime: it shows running on its node"
      : "embedded, no runtime runs: a one-shot oz0 starts nothing long-lived, and the runtime shows stopped",
    async () => {
      let [beacon] = await status();
      if (THROUGH_SERVER) {
        // The server's host starts it at its pass after the install; wait for that pass, not a time.
        for (let tries = 0; tries < 200 && beacon?.runtimes[0]?.state !== "running"; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          [beacon] = await status();
        }
        expect(beacon?.runtimes[0]).toMatchObject({ runtime: "pulse", state: "running", restarts: 0 });
        expect(beacon?.runtimes[0]?.node).toEqual(expect.any(String));
      } else {
        expect(beacon?.runtimes).toEqual([
          expect.objectContaining({
            runtime: "pulse",
            state: "stopped",
            restarts: 0,
            lastError: null,
            node: null,
          }),
        ]);
        expect((await run("plugin", "status", "beacon")).stdout).toContain(
          "runtime pulse: stopped · 0 restart(s)",
        );
      }
    },
  );

  it("with no name, shows every plugin of the tenant", async () => {
    const all = await run("--json", "plugin", "status");
    expect(all.code, all.stderr).toBe(0);
    expect(all.json<StatusJson[]>().map((one) => one.plugin)).toContain("beacon");
  });

  it("refuses a plugin the tenant does not have", async () => {
    const missing = await run("plugin", "status", "nope");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope");
  });
});
