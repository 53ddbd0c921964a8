// What a hook records as a person's chat message is written, while a real `oz0 node` process
// runs the chat's turn, is in the chat's `oz0 job trace`, on SQLite and on PostgreSQL. The
// fixture's handler fails only once the node holds the turn (hook-recorder/index.js).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { FIXTURES, LAB } from "./jobs-helpers.js";
import { oz0, tempHome, types } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");
const RECORDER = join(import.meta.dirname, "fixtures/hook-recorder");
const engines = engineFixtures().filter((fixture) => fixture.label !== "memory");
afterAll(() => disposeFixtures(engines));

/** An `oz0 node` on `home`, started once it says so. */
async function startNode(home: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(
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
      "--home",
      home,
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (text) => {
      if ((JSON.parse(text) as { event?: string }).event === "started") resolve();
    });
    child.once("exit", (code) => reject(new Error(`the node exited (${code}) before it started`)));
  });
  return child;
}

describe.each(engines)("hook records of a chat a node runs, on $label", (fixture) => {
  let home: string;
  let cleanup: () => Promise<void>;
  let node: ChildProcess | undefined;
  const env: Record<string, string | undefined> = {};
  beforeAll(async () => {
    const options = await fixture.fresh();
    env.OZ0_DATABASE_URL = options.databaseUrl;
    env.OZ0_TEST_HOOK_MARKERS = await mkdtemp(join(tmpdir(), "oz0-hook-markers-"));
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    ({ home, cleanup } = await tempHome());
    for (const dir of [join(FIXTURES, "helpdesk"), RECORDER]) {
      const installed = await oz0(["plugin", "install", dir, "--home", home, "--tenant", LAB]);
      expect(installed.code, installed.stderr).toBe(0);
    }
    node = await startNode(home, { ...process.env });
  });
  afterAll(async () => {
    if (node !== undefined && node.exitCode === null) {
      const exited = once(node, "exit");
      node.kill("SIGTERM");
      await exited;
    }
    await cleanup?.();
    delete process.env.OZ0_DATABASE_URL;
    delete process.env.OZ0_TEST_HOOK_MARKERS;
  });

  it("shows the hook_error of post_session_access, raised while the node ran the turn, in oz0 job trace", async () => {
    types("hello", "again");
    const chat = await oz0(["chat", "helpdesk/chatty", "--home", home, "--tenant", LAB]);
    expect(chat.code, chat.stderr).toBe(0);
    const id = /the conversation is job (chatty-[0-9a-z]+)/.exec(chat.stderr)?.[1];
    expect(id).toBeDefined();
    const trace = await oz0(["job", "trace", id!, "--json", "--home", home, "--tenant", LAB]);
    const events = trace.json<{ kind: string; data: Record<string, unknown> }[]>();
    const errors = events.filter(
      (entry) => entry.kind === "hook_error" && entry.data.hook === "post_session_access",
    );
    expect(errors.map((entry) => entry.data)).toEqual([
      expect.objectContaining({ plugin: "hook-recorder", error: "the recorder heard the message" }),
    ]);
    // It follows the message it was raised for, and the node ran the turn.
    const message = events.findIndex((entry) => entry.kind === "user_message" && entry.data.text === "again");
    expect(message).toBeGreaterThan(0);
    expect(events.indexOf(errors[0]!)).toBeGreaterThan(message);
    const text = await oz0(["job", "trace", id!, "--home", home, "--tenant", LAB]);
    expect(text.stdout).toContain("the recorder heard the message");
  });
});
