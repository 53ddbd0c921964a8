// `oz0 serve` as a real process, on SQLite and PostgreSQL: it prints the URL it listens on,
// answers /v1/health, runs a job it starts with its own worker for a key made by oz0 key
// create, refuses any other key, and SIGTERM drains the worker and closes the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { registerServe } from "../src/commands/serve.js";
import { Output } from "../src/output.js";
import { homeWithPlugins } from "./jobs-helpers.js";
import { jsonLines } from "./json-lines.js";
import { oz0 } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");

const fixtures = engineFixtures().filter((fixture) => fixture.label !== "memory");
afterAll(() => disposeFixtures(fixtures));

function serve(args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(
    process.execPath,
    ["--conditions=@oz0/source", "--import", RESOLVE_TS, MAIN, "serve", ...args],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

describe.each(fixtures)("oz0 serve on $label", (fixture) => {
  let home: string;
  let cleanup: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  let KEY: string;
  beforeAll(async () => {
    databaseUrl = (await fixture.fresh()).databaseUrl;
    if (databaseUrl !== undefined) process.env.OZ0_DATABASE_URL = databaseUrl;
    ({ home, cleanup } = await homeWithPlugins());
    const made = await oz0(["key", "create", "--name", "ci", "--role", "runner", "--json", "--home", home]);
    expect(made.code, made.stderr).toBe(0);
    KEY = (JSON.parse(made.stdout) as { key: string }).key;
  });
  afterAll(async () => {
    delete process.env.OZ0_DATABASE_URL;
    await cleanup?.();
  });

  it("prints its URL, answers /v1/health, runs a job it starts, and drains on SIGTERM", async () => {
    const server = serve(["--listen", "127.0.0.1:0", "--json", "--home", home], {
      ...(databaseUrl === undefined ? {} : { OZ0_DATABASE_URL: databaseUrl }),
    });
    const lines = jsonLines(server, "oz0 serve");
    try {
      const listening = await lines.next((value) => value.event === "listening");
      const url = String(listening.url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/v1/health`)).status).toBe(200);
      const forged = await fetch(`${url}/v1/t/default/jobs`, {
        headers: { authorization: `Bearer ${KEY.slice(0, -4)}abcd` },
      });
      expect(forged.status).toBe(401);
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
      const started = await fetch(`${url}/v1/t/default/jobs`, {
        method: "POST",
        headers,
        body: JSON.stringify({ agent: "support-triage/triage", input: "ticket 7" }),
      });
      expect(started.status).toBe(201);
      const { id } = (await started.json()) as { id: string };
      const events = await fetch(`${url}/v1/t/default/jobs/${id}/events`, {
        headers: { ...headers, accept: "text/event-stream" },
      });
      // The stream ends once the job has: the server's own worker ran it.
      expect(await events.text()).toContain("event: job_succeeded");
      const job = (await (await fetch(`${url}/v1/t/default/jobs/${id}`, { headers })).json()) as {
        status: string;
      };
      expect(job.status).toBe("succeeded");
      const closed = lines.next((value) => value.event === "closed");
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      await closed;
      expect(await exited).toEqual([0, null]);
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });

  it("prints the URL it listens on as a line of text without --json, and says it drains on SIGTERM", async () => {
    const server = serve(["--listen", "127.0.0.1:0", "--home", home], {
      ...(databaseUrl === undefined ? {} : { OZ0_DATABASE_URL: databaseUrl }),
    });
    try {
      let stdout = "";
      let stderr = "";
      server.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout?.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const line = /^oz0 serve listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
          if (line !== null) resolve(line[1]!);
        });
        server.once("exit", () => reject(new Error(`oz0 serve ended: ${stderr}`)));
      });
      expect((await fetch(`${url}/v1/health`)).status).toBe(200);
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      expect(await exited).toEqual([0, null]);
      expect(stderr).toContain("oz0 serve: draining the worker and closing\n");
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });

  it("with --no-worker, leaves the jobs it starts queued for a worker elsewhere", async () => {
    const server = serve(["--listen", "127.0.0.1:0", "--no-worker", "--json", "--home", home], {
      ...(databaseUrl === undefined ? {} : { OZ0_DATABASE_URL: databaseUrl }),
    });
    const lines = jsonLines(server, "oz0 serve");
    try {
      const listening = await lines.next((value) => value.event === "listening");
      expect(listening.worker).toBeNull();
      const started = await fetch(`${String(listening.url)}/v1/t/default/jobs`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ agent: "support-triage/triage", input: "ticket 8" }),
      });
      expect(((await started.json()) as { status: string }).status).toBe("queued");
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      expect(await exited).toEqual([0, null]);
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });
});

describe("oz0 serve's options", () => {
  it("listens on 127.0.0.1:7420 when --listen is left out", () => {
    const serveCommand = registerServe(
      new Command(),
      new Output(
        () => {},
        () => {},
      ),
    );
    expect(serveCommand.name()).toBe("serve");
    expect(serveCommand.opts()).toMatchObject({ listen: { host: "127.0.0.1", port: 7420 } });
  });

  it("refuses a --listen that is not HOST:PORT", async () => {
    const result = await oz0(["serve", "--listen", "localhost", "--json"]);
    expect(result.code).not.toBe(0);
    expect((JSON.parse(result.stderr) as { error: { message: string } }).error.message).toContain(
      "HOST:PORT",
    );
  });
});
