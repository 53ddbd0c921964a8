import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../../runtime/test/models/fake-servers/server.js";
import { chatInput } from "../src/commands/chat.js";
import { keyInput } from "../src/commands/provider.js";
import type { RunShape } from "./jobs-helpers.js";
import { oz0, tempHome, types } from "./run-cli.js";

const SWITCHBOARD = join(import.meta.dirname, "../../runtime/test/fixtures/models/switchboard");
const KEY = "sk-cli-0123456789abcdefghijklmnopqr";

let home: string;
let cleanup: () => Promise<void>;
let server: FakeModelServer;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  server = await FakeModelServer.start("openai-chat", { apiKey: KEY });
  const installed = await run(["plugin", "install", SWITCHBOARD]);
  if (installed.code !== 0) throw new Error(installed.stderr);
});
afterAll(async () => {
  await server.close();
  await cleanup();
});
const originalKey = keyInput.read;
const originalOpen = chatInput.open;
afterEach(() => {
  keyInput.read = originalKey;
  chatInput.open = originalOpen;
  expect(server.pending).toBe(0);
});

const run = (args: string[]) => oz0([...args, "--home", home]);

/** `--api-key-stdin` reads `key`. */
function pipes(key: string): void {
  keyInput.read = async () => `${key}\n`;
}

/** Everything oz0 wrote under its home: the SQLite file and its journal. */
async function storedBytes(): Promise<string> {
  const files = (await readdir(home)).filter((file) => file.startsWith("oz0.db"));
  const contents = await Promise.all(files.map((file) => readFile(join(home, file))));
  return Buffer.concat(contents).toString("latin1");
}

describe("oz0 model and oz0 provider", () => {
  it("lists default on the offline test model while nothing is set, and a run says so once", async () => {
    const list = await run(["model", "list"]);
    expect(list.stdout).toBe("default  → test (nothing set: the offline test model)\n");
    const result = await run(["run", "switchboard/triage", "ticket 7"]);
    expect(result.code).toBe(0);
    expect(result.stderr.match(/model alias default is not set in tenant default/g)).toHaveLength(1);
  });

  it("runs an agent of model: { use: default } on an OpenAI-compatible server set with oz0 model set", async () => {
    pipes(KEY);
    const set = await run([
      "provider",
      "set",
      "openai-compatible",
      "--base-url",
      server.url,
      "--api-key-stdin",
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("key   stored (sk-cli-…opqr)");
    expect((await run(["model", "set", "default", "openai-compatible:qwen2.5:7b"])).stdout).toBe(
      "default → openai-compatible:qwen2.5:7b in tenant default\n",
    );
    expect(
      (await run(["model", "price", "openai-compatible:qwen2.5:7b", "--input", "2", "--output", "8"])).code,
    ).toBe(0);
    server.reply(
      { calls: [{ name: "tickets__lookup", args: { id: 7 } }], usage: { input: 1000, output: 50 } },
      { text: "billing" },
    );
    const result = await run(["run", "switchboard/triage", "ticket 7", "--json"]);
    expect(result.code).toBe(0);
    const job = result.json<RunShape>();
    expect(job).toMatchObject({ status: "succeeded", output: "billing", failure: null });
    const trace = await run(["job", "trace", job.id, "--json"]);
    const events = trace.json<{ kind: string; data: Record<string, unknown> }[]>();
    expect(events.filter((entry) => entry.kind === "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { id: 7, queue: "billing" },
    });
    expect(events.find((entry) => entry.kind === "model_call")?.data).toMatchObject({
      model: "openai-compatible:qwen2.5:7b",
      usage: { input: 1000, output: 50 },
      cost_usd: 0.0024,
    });
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    const drawn = (await run(["job", "trace", job.id])).stdout;
    expect(drawn).toMatch(/model calls?, 1 tool call, \d+ tokens · \$0\.00246 · \d+ ms\n/);
    expect(drawn).toContain("1000+50 tokens · $0.0024 → tickets__lookup");
  });

  it("streams a chat's answer to the terminal as it comes", async () => {
    server.reply({ text: "the billing queue, I think" });
    types("which queue is ticket 7 in?");
    const result = await run(["chat", "switchboard/triage"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("the billing queue, I think\n");
  });

  it("never prints or stores the key in the clear: lists, traces, errors and the database", async () => {
    const providers = await run(["provider", "list"]);
    const json = await run(["provider", "list", "--json"]);
    expect(providers.stdout).toContain("openai-compatible");
    const ids = (await run(["job", "search", "--json"])).json<{ id: string }[]>().map((job) => job.id);
    const traces = await Promise.all(ids.map((id) => run(["job", "trace", id])));
    const traceJson = await Promise.all(ids.map((id) => run(["job", "trace", id, "--json"])));
    // A wrong key the server echoes back in its error.
    const wrong = "sk-wrong-0123456789abcdefghijklmnop";
    pipes(wrong);
    await run(["provider", "set", "openai-compatible", "--api-key-stdin"]);
    const failed = await run(["run", "switchboard/triage", "ticket 7"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Incorrect API key provided: [redacted]");
    const printed = [providers, json, ...traces, ...traceJson, failed]
      .map((r) => r.stdout + r.stderr)
      .join("\n");
    for (const key of [KEY, wrong]) {
      expect(printed).not.toContain(key);
      expect(await storedBytes()).not.toContain(key);
    }
    pipes(KEY);
    await run(["provider", "set", "openai-compatible", "--api-key-stdin"]);
  });

  it("sets, lists and removes prices", async () => {
    expect(
      (await run(["model", "price", "test:*", "--input", "0.5", "--output", "1.5", "--cached", "0.1"]))
        .stdout,
    ).toBe("test:*: $0.5 in, $0.1 cached, $1.5 out per million tokens in tenant default\n");
    const prices = await run(["model", "prices"]);
    expect(prices.stdout).toMatch(/^test:\* +\$0\.5 in, \$0\.1 cached, \$1\.5 out per million tokens$/m);
    expect((await run(["model", "price", "test:*", "--remove"])).code).toBe(0);
    const missing = await run(["model", "price", "test:*", "--input", "1"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("needs --input and --output");
  });

  it("refuses an alias to a provider the tenant does not have, at once", async () => {
    const result = await run(["model", "set", "fast", "olama:qwen2.5"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("tenant default has no provider named olama");
  });

  it("sets an alias's request options, which reach the server, and refuses one out of range or unknown", async () => {
    pipes(KEY);
    expect(
      (await run(["provider", "set", "openai-compatible", "--base-url", server.url, "--api-key-stdin"])).code,
    ).toBe(0);
    const set = await run([
      "model",
      "set",
      "careful",
      "openai-compatible:qwen2.5:7b",
      "--temperature",
      "0.2",
      "--max-tokens",
      "256",
      "--stop",
      "END",
      "--header",
      "X-Team=support",
      "--no-stream",
    ]);
    expect(set.stdout).toBe(
      'careful → openai-compatible:qwen2.5:7b (temperature 0.2, max_tokens 256, stop "END", headers X-Team, stream false) in tenant default\n',
    );
    expect((await run(["model", "list"])).stdout).toContain(
      'careful  → openai-compatible:qwen2.5:7b (temperature 0.2, max_tokens 256, stop "END", headers X-Team, stream false)',
    );
    const hot = await run(["model", "set", "hot", "openai-compatible:qwen2.5:7b", "--temperature", "3"]);
    expect(hot.code).toBe(1);
    expect(hot.stderr).toContain("temperature: temperature is a number from 0 to 2");
    const stored = await run(["model", "set", "kept", "anthropic:claude-sonnet-4-5", "--store"]);
    expect(stored.code).toBe(1);
    expect(stored.stderr).toContain("cannot honour store, set by alias kept: store is OpenAI's");
    const names = (await run(["model", "list", "--json"]))
      .json<{ alias: string }[]>()
      .map((alias) => alias.alias);
    expect(names).not.toContain("hot");
    expect(names).not.toContain("kept");
    expect((await run(["model", "remove", "careful"])).code).toBe(0);
  });

  it("configures a new provider of a built-in type and removes it", async () => {
    const set = await run([
      "provider",
      "set",
      "ollama",
      "--type",
      "openai-compatible",
      "--base-url",
      server.url,
      "--timeout",
      "5",
      "--retries",
      "1",
    ]);
    expect(set.stdout).toContain("ollama");
    expect(set.stdout).toContain("calls timeout 5 s, 1 retries");
    const whole = await run([
      "provider",
      "set",
      "ollama",
      "--no-stream",
      "--structured-output",
      "json_schema",
    ]);
    expect(whole.stdout).toContain(
      "calls timeout 5 s, 1 retries, not streamed, structured output json_schema",
    );
    const listed = (await run(["provider", "list", "--json"])).json<
      { name: string; source: string; stream: boolean | null; structuredOutput: string | null }[]
    >();
    expect(listed.find((entry) => entry.name === "ollama")).toMatchObject({
      source: "tenant",
      stream: false,
      structuredOutput: "json_schema",
    });
    const refused = await run(["provider", "set", "anthropic", "--structured-output", "prompt"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--structured-output applies to openai-compatible servers");
    expect((await run(["provider", "remove", "ollama"])).code).toBe(0);
    expect((await run(["provider", "remove", "ollama"])).code).toBe(1);
  });

  it("removes an alias, after which default runs on the offline model again", async () => {
    expect((await run(["model", "remove", "default"])).code).toBe(0);
    expect((await run(["model", "list", "--json"])).json()).toEqual([
      { alias: "default", target: "test", fallback: true, options: {} },
    ]);
  });
});
