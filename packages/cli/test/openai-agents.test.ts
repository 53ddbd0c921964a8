// `runtime: openai-agents` from the command line: an agent whose loop is the OpenAI Agents SDK
// runs with `oz0 run` against a fake OpenAI Responses server, and `oz0 job trace` shows its
// steps on that runtime; `oz0 plugin lint` refuses one whose model no OpenAI format serves.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../../runtime/test/models/fake-servers/server.js";
import { chatInput } from "../src/commands/chat.js";
import { keyInput } from "../src/commands/provider.js";
import type { RunShape } from "./jobs-helpers.js";
import { oz0, tempHome, types } from "./run-cli.js";

const DESK = join(import.meta.dirname, "../../runtime/test/fixtures/jobs/agents-desk");
const S031 = join(import.meta.dirname, "../../runtime/test/fixtures/lint/oz-s031/triggers");
const KEY = "sk-cli-0123456789abcdefghijklmnopqr";

let home: string;
let cleanup: () => Promise<void>;
let server: FakeModelServer;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  server = await FakeModelServer.start("openai-responses", { apiKey: KEY });
  const installed = await run(["plugin", "install", DESK]);
  if (installed.code !== 0) throw new Error(installed.stderr);
  keyInput.read = async () => `${KEY}\n`;
  const set = await run(["provider", "set", "openai", "--base-url", server.url, "--api-key-stdin"]);
  if (set.code !== 0) throw new Error(set.stderr);
});
const originalKey = keyInput.read;
const originalOpen = chatInput.open;
afterAll(async () => {
  keyInput.read = originalKey;
  chatInput.open = originalOpen;
  await server.close();
  await cleanup();
});
afterEach(() => {
  expect(server.pending).toBe(0);
});

const run = (args: string[]) => oz0([...args, "--home", home]);

describe("runtime openai-agents on the command line", () => {
  it("runs an agent through the OpenAI Agents SDK, and oz0 job trace shows each step on runtime openai-agents", async () => {
    server.reply({ calls: [{ name: "ledger__add", args: { entry: "one" } }] }, { text: "filed" });
    const result = await run(["run", "desk/clerk", "file it", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const job = result.json<RunShape>();
    expect(job).toMatchObject({ status: "succeeded", output: "filed" });
    const events = (await run(["job", "trace", job.id, "--json"])).json<
      { kind: string; data: Record<string, unknown> }[]
    >();
    expect(events.find((entry) => entry.kind === "job_started")?.data.runtime).toBe("openai-agents");
    expect(events.filter((entry) => entry.kind === "model_call").map((entry) => entry.data.runtime)).toEqual([
      "openai-agents",
      "openai-agents",
    ]);
    // Each step names the node that took it, the one its claim names.
    const node = events.find((entry) => entry.kind === "job_claimed")?.data.node;
    expect(node).toEqual(expect.any(String));
    expect(events.filter((entry) => entry.kind === "model_call").map((entry) => entry.data.node)).toEqual([
      node,
      node,
    ]);
    const drawn = (await run(["job", "trace", job.id])).stdout;
    expect(drawn).toContain("· runtime openai-agents");
    expect(drawn.match(/· on openai-agents · openai:gpt-4\.1 ·/g)).toHaveLength(2);
    // The node that ran the steps is its claim's, drawn before them.
    expect(drawn).toMatch(/claimed {6}attempt 1 by \S+[\s\S]*step 1 · on openai-agents/);
  });

  it("oz0 chat talks with it: each answer streams to the terminal, and the second message goes on from the first", async () => {
    server.reply(
      { text: "what shall I file?" },
      { calls: [{ name: "ledger__add", args: { entry: "7" } }] },
      {
        text: "filed ticket 7",
      },
    );
    const asked = server.requests.length;
    types("hi", "file ticket 7");
    const result = await run(["chat", "desk/clerk"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("what shall I file?\nfiled ticket 7\n");
    expect(server.requests).toHaveLength(asked + 3);
  });

  it("oz0 plugin lint refuses an openai-agents agent on a model no OpenAI format serves (OZ-S031)", async () => {
    const linted = await run(["plugin", "lint", S031]);
    expect(linted.code).toBe(1);
    expect(linted.stdout.match(/ error OZ-S031 /g)).toHaveLength(3);
  });
});
