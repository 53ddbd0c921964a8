// An agent at Claude Managed Agents from the command line: the tenant's key for provider
// anthropic stored with oz0 provider set, a run against the loopback fake of the Managed Agents
// API (reached through the official SDK), and its session in oz0 job trace under runtime
// remote:anthropic: its steps, its confirmed tool use and what the session reported.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_KEY,
  type FakeManagedAgents,
  startManagedAgents,
} from "../../runtime/test/runtimes/anthropic/managed-agents-server.js";
import { keyInput } from "../src/commands/provider.js";
import { oz0, tempHome } from "./run-cli.js";

/** Where a node's operator points oz0 at the Managed Agents API (docs/runtimes.md). */
const AGENTS_URL_VARIABLE = "OZ0_ANTHROPIC_AGENTS_URL";
const STUDIO = join(import.meta.dirname, "../../runtime/test/fixtures/runtimes/anthropic");

let fake: FakeManagedAgents;
let home: string;
let cleanup: () => Promise<void>;
const saved = process.env[AGENTS_URL_VARIABLE];
const originalKey = keyInput.read;
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  fake = await startManagedAgents();
  process.env[AGENTS_URL_VARIABLE] = fake.url;
  ({ home, cleanup } = await tempHome());
  const installed = await run("plugin", "install", STUDIO);
  if (installed.code !== 0) throw new Error(installed.stderr);
});

afterAll(async () => {
  keyInput.read = originalKey;
  if (saved === undefined) delete process.env[AGENTS_URL_VARIABLE];
  else process.env[AGENTS_URL_VARIABLE] = saved;
  await fake.close();
  await cleanup();
});

describe("a remote:anthropic agent from the command line", () => {
  it("runs with the key oz0 provider set stores, and oz0 job trace shows its session", async () => {
    keyInput.read = async () => `${FAKE_KEY}\n`;
    expect((await run("provider", "set", "anthropic", "--api-key-stdin")).code).toBe(0);
    const ran = await run("run", "studio/keeper", "bash", "--json");
    expect(ran.json()).toMatchObject({ status: "succeeded", output: "done: bash: ran" });
    const id = ran.json<{ id: string }>().id;
    const trace = (await run("job", "trace", id)).stdout;
    expect(trace).toContain("runtime remote:anthropic");
    expect(trace).toMatch(
      /model {8}step 1 · on remote:anthropic · anthropic:claude-sonnet-4-6 · 0 ms · 0\+0 tokens → task/,
    );
    expect(trace).toMatch(
      /model {8}step 2 · on remote:anthropic · anthropic:claude-sonnet-4-6 · 0 ms · 10\+5 tokens/,
    );
    expect(trace).toContain("tool call    remote.session studio/keeper.start_session");
    expect(trace).toMatch(/remote task {2}remote\.session sesn_\S+ session/);
    expect(trace).toContain("tool call    remote.message.1 studio/keeper.send_message");
    expect(trace).toMatch(/tool call {4}remote\.confirm\.\S+ studio\/keeper\.bash/);
    expect(trace).toContain("harness      remote:anthropic tool_use");
    expect(trace).toContain("harness      remote:anthropic agent_message");
    expect(trace).not.toContain(FAKE_KEY);
  });
});
