// The CLI as a client of a real oz0 server over loopback HTTP: --server or OZ0_SERVER with a key
// from OZ0_API_KEY or --api-key-file, the same answers and exit codes as embedded, a folder
// installed by uploading its bundle, a job followed by its event stream (model text deltas and
// a broken connection taken up with Last-Event-ID), and the refusals of what it cannot do.
import { writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { localAdmin, Runtime } from "@oz0/runtime";
import { type RunningServer, startServer } from "@oz0/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interrupts } from "../src/commands/job.js";
import { LOCAL_ONLY } from "../src/local-only.js";
import { followJob } from "../src/remote/follow.js";
import { ServerApi } from "../src/remote/http.js";
import { oz0, tempHome } from "./run-cli.js";

const SUPPORT_TRIAGE = fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));

let home: string;
let cleanup: () => Promise<void>;
let runtime: Runtime;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  runtime = await Runtime.open({ home });
  server = await startServer({
    runtime,
    host: "127.0.0.1",
    port: 0,
    worker: { pollMs: 50 },
    eventPollMs: 20,
  });
  key = (
    await runtime.identity.createKey(localAdmin("default"), { name: "cli", role: "admin", agents: ["*"] })
  ).key;
});
afterAll(async () => {
  await server?.close();
  await runtime?.close();
  await cleanup?.();
});

/** A command line through the server, with the key in OZ0_API_KEY. */
async function remote(
  args: readonly string[],
  env: Record<string, string | undefined> = { OZ0_API_KEY: key },
) {
  const before = { ...process.env };
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  try {
    return await oz0(args);
  } finally {
    for (const name of Object.keys(env)) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
  }
}

describe("oz0 plugin install --server", () => {
  it("packs the folder into a bundle and uploads it; the plugin's folder is the one it came from", async () => {
    const installed = await remote(["plugin", "install", SUPPORT_TRIAGE, "--server", server.url, "--json"]);
    expect(installed.code).toBe(0);
    expect(installed.json()).toMatchObject({
      action: "install",
      plugin: "support-triage",
      dir: SUPPORT_TRIAGE,
    });
    const embedded = await oz0(["plugin", "list", "--json", "--home", home]);
    const through = await remote(["plugin", "list", "--json", "--server", server.url]);
    expect(through.stdout).toBe(embedded.stdout);
  });
});

describe("a command through a server", () => {
  it("runs a job on the server's worker, drawing its steps, with the same answer and exit code as embedded", async () => {
    const here = await oz0(["run", "support-triage/triage", "ticket 1", "--home", home]);
    const there = await remote(["run", "support-triage/triage", "ticket 1", "--server", server.url]);
    expect(there.code).toBe(here.code);
    expect(there.stdout).toBe(here.stdout);
    // Embedded, this run waits on the server's worker's lease; through it, it follows the worker's steps.
    expect(there.stderr).toMatch(/^job triage-\S+ · support-triage\/triage\n/);
    expect(there.stderr).toMatch(/\n {2}model {8}step 1 · /);
    expect(there.stderr).toMatch(/\n {2}succeeded {4}→ /);
  });

  it("answers an error with the same code, message and exit code as embedded", async () => {
    const here = await oz0(["job", "get", "triage-nosuchjob", "--json", "--home", home]);
    const there = await remote(["job", "get", "triage-nosuchjob", "--json", "--server", server.url]);
    expect(there.code).toBe(1);
    expect(there.stderr).toBe(here.stderr);
  });

  it("reads the server from OZ0_SERVER and the key from --api-key-file", async () => {
    const file = join(home, "key.txt");
    await writeFile(file, `${key}\n`, { mode: 0o600 });
    const result = await remote(["plugin", "list", "--api-key-file", file], {
      OZ0_SERVER: server.url,
      OZ0_API_KEY: undefined,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("support-triage");
  });

  it("refuses a missing key, saying where to put one", async () => {
    const result = await remote(["plugin", "list", "--server", server.url], { OZ0_API_KEY: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `oz0: --server ${server.url}: no API key; set OZ0_API_KEY, or name a file holding it with --api-key-file (oz0 key create makes one)\n`,
    );
  });

  it("prints the server's refusal of a key it does not accept", async () => {
    const result = await remote(["plugin", "list", "--server", server.url, "--json"], {
      OZ0_API_KEY: "oz0_nosuchkey",
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error.code).toBe("UNAUTHENTICATED");
  });

  it("refuses --home with --server, and --api-key-file without it", async () => {
    const both = await remote(["plugin", "list", "--server", server.url, "--home", home]);
    expect(both.stderr).toMatch(/^oz0: --home \S+: the home is the embedded runtime's/);
    const alone = await oz0(["plugin", "list", "--api-key-file", join(home, "key.txt"), "--home", home]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/^oz0: --api-key-file \S+: a key is for a server/);
  });

  it("says a server it cannot reach is not there", async () => {
    const result = await remote(["plugin", "list", "--server", "http://127.0.0.1:1", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: "NETWORK_ERROR" });
  });

  it("sends the commands that once ran only here to the server, whose key's role decides: a viewer is refused each change", async () => {
    const viewer = (
      await runtime.identity.createKey(localAdmin("default"), {
        name: "viewer",
        role: "viewer",
        agents: ["*"],
      })
    ).key;
    const asViewer = (args: readonly string[]) =>
      remote([...args, "--server", server.url, "--json"], { OZ0_API_KEY: viewer });
    for (const args of [
      ["tenant", "list"],
      ["tenant", "create", "viewers"],
      ["user", "list"],
      ["user", "remove", "nobody"],
      ["routine", "add", "r", "--run", "support-triage/triage", "--event", "webhook"],
      ["routine", "remove", "r"],
      ["routine", "secret", "r"],
      ["skill", "reject", "sp-none"],
    ]) {
      const refused = await asViewer(args);
      expect({ args, code: refused.code, error: JSON.parse(refused.stderr).error.code }).toEqual({
        args,
        code: 1,
        error: "FORBIDDEN",
      });
    }
    // What a viewer may read, it reads from the server's tenant, as the admin's key does.
    for (const args of [
      ["skill", "proposals"],
      ["mcp", "status"],
      ["mcp", "secret", "list"],
      ["remote", "secret", "list"],
    ]) {
      const read = await asViewer(args);
      expect({ args, code: read.code }).toEqual({ args, code: 0 });
      expect(read.stdout).toBe((await oz0([...args, "--json", "--home", home])).stdout);
    }
  });

  it("refuses every command that runs only on this machine, naming it", async () => {
    for (const words of Object.keys(LOCAL_ONLY)) {
      const args = [...words.split(" "), "--server", server.url, "--json"];
      const result = await remote(args);
      // A command whose arguments are missing is refused by the parser before --server is read.
      if (JSON.parse(result.stderr).error.code === "INVALID_INPUT") continue;
      expect(JSON.parse(result.stderr).error).toMatchObject({
        code: "NOT_SUPPORTED",
        data: { command: `oz0 ${words}` },
      });
    }
  });
});

describe("following a job's event stream", () => {
  /** A server that sends each connection's frames from `script`, told the Last-Event-ID it was sent. */
  async function streamServer(script: (lastEventId: string | undefined) => string) {
    const asked: (string | undefined)[] = [];
    const http = createServer((request: IncomingMessage, response: ServerResponse) => {
      const last = request.headers["last-event-id"] as string | undefined;
      if (request.headers.accept === "text/event-stream") {
        asked.push(last);
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(script(last));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "j1", status: "succeeded" }));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    return { api: new ServerApi(url, "default", "k"), asked, close: () => new Promise((r) => http.close(r)) };
  }

  const event = (seq: number, kind: string) =>
    `id: ${seq}\nevent: ${kind}\ndata: ${JSON.stringify({ seq, at: 0, kind, data: {} })}\n\n`;

  it("passes delta frames' text to onText and takes a broken stream up after the last event it had", async () => {
    const stream = await streamServer((last) =>
      last === "0"
        ? `${event(1, "job_claimed")}event: delta\ndata: {"step":1,"text":"Hel"}\n\nevent: delta\ndata: {"step":1,"text":"lo"}\n\n`
        : `${event(2, "model_call")}event: end\ndata: {"job":{"id":"j1","status":"succeeded"}}\n\n`,
    );
    const text: string[] = [];
    const kinds: string[] = [];
    const view = await followJob(stream.api, "j1", 0, {
      onText: (delta) => text.push(delta),
      onEvent: (entry) => kinds.push(entry.kind),
    });
    await stream.close();
    expect(view.status).toBe("succeeded");
    expect(text.join("")).toBe("Hello");
    expect(kinds).toEqual(["job_claimed", "model_call"]);
    expect(stream.asked).toEqual(["0", "1"]);
  });

  it("refuses a frame it does not know rather than pass over it", async () => {
    const stream = await streamServer(() => "event: surprise\ndata: {}\n\n");
    await expect(followJob(stream.api, "j1", 0, {})).rejects.toMatchObject({
      code: "NETWORK_ERROR",
      message: expect.stringContaining("a frame this oz0 does not know (surprise)"),
    });
    await stream.close();
  });

  it("stops following at Ctrl-C, saying the job goes on on the server and how to follow it again", async () => {
    const job = { id: "triage-j1", agent: "support-triage/triage", status: "running", waitingFor: null };
    const http = createServer((request, response) => {
      const path = request.url ?? "";
      if (request.headers.accept === "text/event-stream") {
        // One event, then the stream stays open as a long step's does.
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(event(2, "job_claimed"));
        return;
      }
      response.writeHead(path.endsWith("/jobs") ? 201 : 200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          path.endsWith("/workers")
            ? { live: 1 }
            : { ...job, status: path.endsWith("/jobs") ? "queued" : "running" },
        ),
      );
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const original = interrupts.on;
    let interrupt = () => {};
    interrupts.on = (handler) => {
      interrupt = handler;
      return () => {};
    };
    try {
      const before = process.env.OZ0_API_KEY;
      process.env.OZ0_API_KEY = "k";
      const result = await oz0(["run", "support-triage/triage", "x", "--server", url], {
        onStderr: (text) => {
          if (text.startsWith("job triage-j1")) setTimeout(() => interrupt(), 50);
        },
      });
      if (before === undefined) delete process.env.OZ0_API_KEY;
      else process.env.OZ0_API_KEY = before;
      expect(result.code).toBe(130);
      expect(result.stderr).toContain(
        [
          "oz0: job triage-j1 goes on on the server: it is not cancelled, and the server's worker runs it",
          "  oz0 job resume triage-j1   follow its steps again, to its end",
          "  oz0 job trace triage-j1    see what it has done so far",
          "  oz0 job cancel triage-j1   cancel it",
          "",
        ].join("\n"),
      );
    } finally {
      interrupts.on = original;
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
