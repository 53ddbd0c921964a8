// The life of an MCP server behind a tool: secrets it is started with (and never shows), tool
// lists that change, a server that dies and is started again after a pause, and servers that
// stop when their plugin goes.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/mcp/index.js";
import { Runtime } from "../../src/runtime.js";
import {
  EVERYTHING,
  eventually,
  everythingStdio,
  FIXTURE_SERVER,
  fixtureStdio,
  RESOLVE_TS,
  tempDir,
  writePlugin,
} from "./helpers.js";

const TENANT = "default";
/** A launcher as npx is, which only SIGKILL ends (fixtures/launcher.mjs). */
const LAUNCHER = fileURLToPath(new URL("./fixtures/launcher.mjs", import.meta.url));
const SECRET = "tok-4f9d2c7e1b8a";

let home: string;
let cleanup: () => Promise<void>;
let runtime: Runtime;

beforeEach(async () => {
  const temp = await tempDir("oz0-mcp-life-");
  home = temp.dir;
  cleanup = temp.cleanup;
  runtime = await Runtime.open({
    home,
    memory: true,
    defaultPlugins: [],
  });
});

afterEach(async () => {
  await runtime.close();
  await cleanup();
});

async function install(name: string, tool: string, mcp: string, version = "1.0.0"): Promise<string> {
  const dir = await writePlugin(
    home,
    `${name}-${version}`,
    [`name: ${name}`, `version: ${version}`, "tools:", `  - id: ${tool}`, `    mcp: ${mcp}`].join("\n"),
  );
  return dir;
}

describe("secrets of an MCP server", () => {
  it("starts a local server with its secret env values and redacts them from its answers", async () => {
    await runtime.catalog.install(
      TENANT,
      await install("demo", "everything", everythingStdio({ PLAIN: "visible" })),
    );
    await runtime.mcp.secrets.set(TENANT, "demo", "everything", "env", "API_TOKEN", SECRET);
    const report = await runtime.tools.call(TENANT, "demo/everything.get-env", {});
    expect(report.ok).toBe(true);
    const env = JSON.parse(String(report.result)) as Record<string, string>;
    // The server got it, and printed it: oz0 shows [redacted] in its place.
    expect(env.API_TOKEN).toBe("[redacted]");
    expect(env.PLAIN).toBe("visible");
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });

  it("redacts a secret from a tool's error answer", async () => {
    await runtime.catalog.install(TENANT, await install("fix", "fixture", fixtureStdio()));
    await runtime.mcp.secrets.set(TENANT, "fix", "fixture", "env", "FIXTURE_SECRET", SECRET);
    const report = await runtime.tools.call(TENANT, "fix/fixture.fail", {});
    expect(report.error).toEqual({
      code: "MCP_TOOL_ERROR",
      message: "fix/fixture.fail answered with an error: cannot go on with [redacted]",
    });
  });

  it("redacts a secret from what a dying server wrote to stderr", async () => {
    await runtime.catalog.install(TENANT, await install("fix", "fixture", fixtureStdio()));
    await runtime.mcp.secrets.set(TENANT, "fix", "fixture", "env", "FIXTURE_SECRET", SECRET);
    const report = await runtime.tools.call(TENANT, "fix/fixture.crash", {});
    expect(report.error?.code).toBe("MCP_SERVER_ERROR");
    expect(report.error?.message).toContain("about to crash holding [redacted]");
    expect(report.error?.message).not.toContain(SECRET);
  });

  it("restarts the server when a secret changes, so the new value is used", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.mcp.secrets.set(TENANT, "demo", "everything", "env", "MODE", "first-value");
    const first = await runtime.tools.call(TENANT, "demo/everything.get-env", {});
    expect(JSON.parse(String(first.result)).MODE).toBe("[redacted]");
    const pid = runtime.mcp.status()[0]?.pid;
    await runtime.mcp.secrets.remove(TENANT, "demo", "everything");
    const second = await runtime.tools.call(TENANT, "demo/everything.get-env", {});
    expect(JSON.parse(String(second.result)).MODE).toBeUndefined();
    expect(runtime.mcp.status()).toHaveLength(1);
    expect(runtime.mcp.status()[0]?.pid).not.toBe(pid);
  });

  it("keeps secret values encrypted in the tenant's settings", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.mcp.secrets.set(TENANT, "demo", "everything", "env", "API_TOKEN", SECRET);
    const rows = await runtime.store.db.selectFrom("settings").select(["key", "value"]).execute();
    expect(rows.map((row) => row.key)).toContain("mcp.secret.demo/everything");
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(await runtime.mcp.secrets.get(TENANT, "demo", "everything")).toEqual({
      env: { API_TOKEN: SECRET },
      headers: {},
      oauth: {},
    });
  });

  it("lists secrets by name only", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.mcp.secrets.set(TENANT, "demo", "everything", "env", "API_TOKEN", SECRET);
    expect(await runtime.mcp.secrets.list(TENANT)).toEqual([
      { tool: "demo/everything", env: ["API_TOKEN"], headers: [], oauth: [] },
    ]);
  });
});

describe("a remote server over Streamable HTTP", () => {
  it("sends the manifest's headers and the secret ones, and redacts the secret from the answer", async () => {
    const server = spawn(
      process.execPath,
      ["--conditions=@oz0/source", "--import", RESOLVE_TS, FIXTURE_SERVER, "http"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const [line] = (await once(server.stdout, "data")) as [Buffer];
      const port = /listening (\d+)/.exec(line.toString())?.[1];
      const url = `http://127.0.0.1:${port}/mcp`;
      await runtime.catalog.install(
        TENANT,
        await install("remote", "fixture", `{ url: "${url}", headers: { X-Team: support } }`),
      );
      await runtime.mcp.secrets.set(
        TENANT,
        "remote",
        "fixture",
        "header",
        "Authorization",
        `Bearer ${SECRET}`,
      );
      const report = await runtime.tools.call(TENANT, "remote/fixture.headers", {});
      const headers = (report.result as { headers: Record<string, string> }).headers;
      expect(headers["x-team"]).toBe("support");
      expect(headers.authorization).toBe("[redacted]");
    } finally {
      server.kill();
    }
  });

  it("reaches server-everything in its streamableHttp mode", async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stderr.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("listening")) resolve();
        });
        server.on("exit", () => reject(new Error("server-everything stopped")));
      });
      await runtime.catalog.install(
        TENANT,
        await install("web", "everything", `{ url: "http://127.0.0.1:${port}/mcp" }`),
      );
      const report = await runtime.tools.call(TENANT, "web/everything.get-sum", { a: 2, b: 40 });
      expect(report).toMatchObject({ ok: true });
      expect(String(report.result)).toContain("42");
    } finally {
      server.kill();
    }
  });

  it("says which server could not be reached", async () => {
    await runtime.catalog.install(
      TENANT,
      await install("gone", "fixture", `{ url: "http://127.0.0.1:9/mcp" }`),
    );
    const entries = await runtime.catalog.entries(TENANT);
    const tool = entries.find((entry) => entry.address === "gone/fixture");
    expect(tool?.listError).toMatch(
      /^the MCP server of gone\/fixture \(http:\/\/127\.0\.0\.1:9\/mcp\) could not be reached/,
    );
  });
});

describe("a server whose tools change", () => {
  it("updates the listing on notifications/tools/list_changed", async () => {
    await runtime.catalog.install(TENANT, await install("fix", "fixture", fixtureStdio()));
    const changes: string[] = [];
    runtime.mcp.onToolsChanged((change) => changes.push(change.tool));
    await runtime.tools.call(TENANT, "fix/fixture.add-tool", { name: "late-arrival" });
    await eventually(() => changes.length > 0);
    expect(changes).toEqual(["fix/fixture"]);
    const entries = await runtime.catalog.entries(TENANT);
    expect(entries.map((entry) => entry.address)).toContain("fix/fixture.late-arrival");
    const report = await runtime.tools.call(TENANT, "fix/fixture.late-arrival", {});
    expect(report.result).toBe("ran late-arrival");
  });
});

describe("a server that stops", () => {
  it("fails the call in flight with a clear error when the server is killed, and starts it again for the next", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.tools.call(TENANT, "demo/everything.echo", { message: "warm up" });
    const pid = runtime.mcp.status()[0]?.pid;
    expect(pid).toBeGreaterThan(0);
    // Ten minutes of work: only the kill can end the call, however slow the machine.
    const call = runtime.tools.call(TENANT, "demo/everything.trigger-long-running-operation", {
      duration: 600,
      steps: 5,
    });
    setTimeout(() => process.kill(pid!, "SIGKILL"), 300);
    const report = await call;
    expect(report.ok).toBe(false);
    expect(report.error?.code).toBe("MCP_SERVER_ERROR");
    expect(report.error?.message).toMatch(
      /^the MCP server of demo\/everything \(.+\) stopped during the call to trigger-long-running-operation \(.*\); oz0 starts it again at the next call/,
    );
    const again = await runtime.tools.call(TENANT, "demo/everything.echo", { message: "back" });
    expect(again.result).toBe("Echo: back");
    expect(runtime.mcp.status()[0]).toMatchObject({ state: "ready", starts: 2, failures: 0 });
    expect(runtime.mcp.status()[0]?.pid).not.toBe(pid);
  });

  it("stops a call in flight when the call's signal fires (its job was cancelled or ran out of time)", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    const tool = await runtime.mcp.tool(
      TENANT,
      await runtime.catalog.loadInstalled(TENANT, "demo"),
      "everything",
    );
    const long = tool.functions.find((fn) => fn.name === "trigger-long-running-operation");
    const stop = new AbortController();
    // Ten minutes of work: only the signal can end the call before the test's own timeout.
    const call = long?.run(
      { duration: 600, steps: 5 },
      {
        tenant: TENANT,
        jobId: "j",
        callId: "1",
        idempotencyKey: "j:1",
        address: "demo/everything.trigger-long-running-operation",
        attempt: 1,
        signal: stop.signal,
      },
    );
    setTimeout(() => stop.abort(new Error("job j: the job was cancelled")), 200);
    await expect(call).rejects.toThrow("job j: the job was cancelled");
    // The server lives on for the next call.
    const again = await runtime.tools.call(TENANT, "demo/everything.echo", { message: "still here" });
    expect(again.result).toBe("Echo: still here");
  });

  it("waits longer before each start of a server that keeps failing", async () => {
    const broken = `{ command: ${JSON.stringify(process.execPath)}, args: ["-e", "process.exit(1)"] }`;
    await runtime.catalog.install(TENANT, await install("broken", "tool", broken));
    const times: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = Date.now();
      await expect(
        runtime.mcp.listing(TENANT, await runtime.catalog.loadInstalled(TENANT, "broken"), "tool"),
      ).rejects.toThrow(/could not be started/);
      times.push(Date.now() - started);
    }
    expect(runtime.mcp.status()[0]).toMatchObject({ state: "retrying", failures: 3, starts: 3 });
    // The second start waits out 250 ms, the third 500 ms.
    expect(times[1]).toBeGreaterThanOrEqual(240);
    expect(times[2]).toBeGreaterThanOrEqual(490);
  });

  it("refuses at once, with the last failure, while a failing server's pause is long", async () => {
    const broken = `{ command: ${JSON.stringify(process.execPath)}, args: ["-e", "process.exit(1)"] }`;
    await runtime.catalog.install(TENANT, await install("broken", "tool", broken));
    const loaded = await runtime.catalog.loadInstalled(TENANT, "broken");
    // A pause of ten minutes after the first failure: a caller that waited it out would reach
    // the test's timeout, and one that came after it would start the server a second time.
    const mcp = new McpManager({
      store: runtime.store,
      home,
      timings: { firstRetryMs: 600_000, maxRetryMs: 600_000 },
    });
    try {
      await expect(mcp.listing(TENANT, loaded, "tool")).rejects.toThrow(/could not be started/);
      await expect(mcp.listing(TENANT, loaded, "tool")).rejects.toThrow(
        /^the MCP server of broken\/tool \(.+\) failed .+ in a row \(last: could not be started: .*\); oz0 tries it again in 600 s/,
      );
      expect(mcp.status()[0]).toMatchObject({ state: "retrying", failures: 1, starts: 1 });
    } finally {
      await mcp.close();
    }
  });
});

describe("servers follow what is installed", () => {
  it("stops a plugin's servers when the plugin is removed", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.tools.call(TENANT, "demo/everything.echo", { message: "hi" });
    const pid = runtime.mcp.status()[0]?.pid ?? 0;
    await runtime.catalog.remove(TENANT, "demo");
    expect(runtime.mcp.status()).toEqual([]);
    await eventually(() => !alive(pid));
  });

  it("starts the updated server after an update", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio({ V: "one" })));
    const first = await runtime.tools.call(TENANT, "demo/everything.get-env", {});
    expect(JSON.parse(String(first.result)).V).toBe("one");
    await runtime.catalog.update(
      TENANT,
      await install("demo", "everything", everythingStdio({ V: "two" }), "1.1.0"),
    );
    const second = await runtime.tools.call(TENANT, "demo/everything.get-env", {});
    expect(JSON.parse(String(second.result)).V).toBe("two");
  });

  it("stops what a local server started, when its launcher has to be killed to stop", async () => {
    const pidFile = `${home}/helper.pid`;
    const mcp = `{ command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([LAUNCHER, pidFile, EVERYTHING, "stdio"])} }`;
    await runtime.catalog.install(TENANT, await install("demo", "everything", mcp));
    await runtime.tools.call(TENANT, "demo/everything.echo", { message: "hi" });
    const helper = Number(await readFile(pidFile, "utf8"));
    expect(running(helper)).toBe(true);
    await runtime.mcp.close();
    await eventually(() => !running(helper));
  });

  it("stops every server when the runtime closes", async () => {
    await runtime.catalog.install(TENANT, await install("demo", "everything", everythingStdio()));
    await runtime.tools.call(TENANT, "demo/everything.echo", { message: "hi" });
    const pid = runtime.mcp.status()[0]?.pid ?? 0;
    await runtime.mcp.close();
    await eventually(() => !alive(pid));
  });
});

/** A port nothing listens on now, for a server that takes its port from the environment. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, "close");
  return port;
}

/** Whether `pid` runs: alive and, where /proc tells, not a zombie no parent has reaped yet. */
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return !existsSync("/proc");
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
