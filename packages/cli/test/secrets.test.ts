// The attack: a model repeats the tenant's provider key, and a tool answers with its plugin's
// config secret. Neither may reach anything oz0 prints, stores or exports: the run's output
// and progress, chat's streamed text, `oz0 job trace`, `oz0 job get --json`, a call by hand,
// the database file, or the spans sent to an OTLP collector.

import { readdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../../runtime/test/models/fake-servers/server.js";
import { chatInput } from "../src/commands/chat.js";
import { keyInput } from "../src/commands/provider.js";
import { type CliResult, oz0, tempHome, types } from "./run-cli.js";

const KEYRING = join(import.meta.dirname, "../../runtime/test/fixtures/secrets/keyring");
const KEY = "sk-attack-7Qm2xVb9Lr4Tn8Kp1Wz6";
const TOKEN = "tok-config-3Hd8Rf5Yc2Nv7Gs";
const SECRETS = [KEY, TOKEN];

let home: string;
let cleanup: () => Promise<void>;
let model: FakeModelServer;
let collector: Server;
let endpoint: string;
const exported: string[] = [];

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  model = await FakeModelServer.start("openai-chat", { apiKey: KEY });
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exported.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  await must(["plugin", "install", KEYRING]);
  keyInput.read = async () => `${KEY}\n`;
  await must(["provider", "set", "openai-compatible", "--base-url", model.url, "--api-key-stdin"]);
  await must(["model", "set", "default", "openai-compatible:qwen2.5:7b"]);
  await must(["plugin", "config", "keyring", "--set", JSON.stringify({ token: TOKEN })]);
});
afterAll(async () => {
  keyInput.read = originalKey;
  await model.close();
  await new Promise((resolve) => collector.close(resolve));
  await cleanup();
});
const originalKey = keyInput.read;
const originalOpen = chatInput.open;
afterEach(() => {
  chatInput.open = originalOpen;
  expect(model.pending).toBe(0);
});

const run = (args: string[]) => oz0([...args, "--home", home]);

async function must(args: string[]): Promise<CliResult> {
  const result = await run(args);
  if (result.code !== 0) throw new Error(`oz0 ${args.join(" ")} failed: ${result.stderr}`);
  return result;
}

/**
 * The model calls the function that answers with the config and the one that fails with the
 * token in its error, then repeats the key and the token.
 */
function scriptTheLeak(): void {
  model.reply(
    {
      calls: [
        { name: "vault__reveal", args: {} },
        { name: "vault__jam", args: {} },
      ],
    },
    { text: `here is the key ${KEY} and the token ${TOKEN}, as asked` },
  );
}

/** `oz0 <args>` with spans exported to the test's collector. */
async function exporting(args: string[]): Promise<CliResult> {
  const before = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  try {
    return await run(args);
  } finally {
    if (before === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = before;
  }
}

/** Everything oz0 wrote under its home: the SQLite file and its journal. */
async function storedBytes(): Promise<string> {
  const files = (await readdir(home)).filter((file) => file.startsWith("oz0.db"));
  const contents = await Promise.all(files.map((file) => readFile(join(home, file))));
  return Buffer.concat(contents).toString("latin1");
}

function expectNoSecret(where: string, text: string): void {
  for (const secret of SECRETS) expect([where, text.includes(secret)]).toEqual([where, false]);
}

describe("known secret values", () => {
  it("reach none of oz0's sinks when a model repeats the provider key and a tool answers with a config secret", async () => {
    scriptTheLeak();
    const ran = await exporting(["run", "keyring/echo", "tell me the secrets"]);
    expect(ran.code).toBe(0);
    // The reply got through, with the secrets replaced.
    expect(ran.stdout).toBe("here is the key [redacted] and the token [redacted], as asked\n");
    expectNoSecret("run stdout", ran.stdout);
    expectNoSecret("run progress", ran.stderr);
    const id = /job (\S+) ·/.exec(ran.stderr)?.[1] ?? "";
    expect(id).not.toBe("");

    scriptTheLeak();
    const json = await run(["run", "keyring/echo", "again", "--json"]);
    expect(json.code).toBe(0);
    expectNoSecret("run --json", json.stdout);

    for (const args of [
      ["job", "trace", id],
      ["job", "trace", id, "--json"],
      ["job", "get", id, "--json"],
      ["job", "get", id],
    ]) {
      const shown = await must(args);
      expectNoSecret(args.join(" "), shown.stdout + shown.stderr);
    }
    expect((await must(["job", "trace", id])).stdout).toContain("[redacted]");

    scriptTheLeak();
    model.reply({ text: "noted" });
    types("tell me the secrets", `remember that the token is ${TOKEN}`);
    const chat = await run(["chat", "keyring/echo", "--json"]);
    expect(chat.code).toBe(0);
    expectNoSecret("chat --json", chat.stdout + chat.stderr);
    const chatId = /"id":\s*"([^"]+)"/.exec(chat.stdout)?.[1] ?? "";
    expect(chatId).not.toBe("");
    const chatTrace = await must(["job", "trace", chatId]);
    expect(chatTrace.stdout).toContain("remember that the token is [redacted]");
    expectNoSecret("chat's trace", chatTrace.stdout);

    scriptTheLeak();
    types("tell me the secrets");
    const streamed = await run(["chat", "keyring/echo"]);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toContain("here is the key [redacted] and the token [redacted]");
    expectNoSecret("chat", streamed.stdout + streamed.stderr);

    const byHand = await must(["tool", "call", "keyring/vault.reveal", "--args", "{}", "--json"]);
    expect(byHand.stdout).toContain("[redacted]");
    expectNoSecret("tool call", byHand.stdout);

    const spans = exported.join("\n");
    expect(spans).toContain("invoke_agent keyring/echo");
    expect(spans).toContain("the vault at https://vault.example refused [redacted]");
    expectNoSecret("OTLP export", spans);

    expectNoSecret("the database", await storedBytes());
  });
});
