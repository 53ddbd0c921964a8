// A real ACP agent from npm driven through `runtime: harness:claude-code`: Claude Code through its
// ACP adapter (@zed-industries/claude-agent-acp), offline. Its model is a loopback fake of
// Anthropic's Messages API, and its proxy a loopback one that refuses every request for
// elsewhere, so nothing leaves the machine. The adapter's tool calls reach the agent's tools on
// oz0's MCP server and run through the job, and its permission requests are oz0's calls.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { writeAnthropic } from "../models/fake-servers/anthropic.js";
import type { FakeReply, RecordedRequest } from "../models/fake-servers/server.js";
import { ALICE, executionsOf, type Lab, lab } from "../policy/helpers.js";

const PLUGIN = fileURLToPath(new URL("../fixtures/runtimes/harness-claude", import.meta.url));
const ADAPTER = createRequire(import.meta.url).resolve("@zed-industries/claude-agent-acp/dist/index.js");
const KEY = "sk-ant-fake-0123456789";

/** Anthropic's Messages API on 127.0.0.1, replying from a script; and the proxy that refuses the rest. */
class LoopbackAnthropic {
  readonly requests: RecordedRequest[] = [];
  /** The hosts the agent tried to reach through the proxy, each refused. */
  readonly refused: string[] = [];
  readonly #replies: FakeReply[] = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on("connect", (req, socket) => {
      this.refused.push(req.url ?? "");
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  reply(...replies: FakeReply[]): void {
    this.#replies.push(...replies);
  }

  get pending(): number {
    return this.#replies.length;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const path = req.url ?? "";
    // A plain request through the proxy names its absolute URL: refused like a CONNECT.
    if (/^https?:\/\//.test(path)) {
      this.refused.push(path);
      res.writeHead(403).end();
      return;
    }
    if (req.method !== "POST" || !path.startsWith("/v1/messages") || path.includes("count_tokens")) {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return;
    }
    const request: RecordedRequest = {
      path,
      headers: req.headers,
      body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    this.requests.push(request);
    const reply = this.#replies.shift();
    if (reply === undefined || !("text" in reply || "calls" in reply)) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "no reply scripted" } }));
      return;
    }
    writeAnthropic(res, reply, request, {});
  }
}

function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

/** No model of oz0's is asked anything on a harness: the harness has its own. */
const NO_MODEL = {
  id: "test:unused",
  async generate(): Promise<never> {
    throw new Error("a harness job asked oz0's model");
  },
};

let l: Lab;
let model: LoopbackAnthropic;
beforeAll(async () => {
  model = new LoopbackAnthropic();
  await model.start();
  (globalThis as { __oz0ClaudeHarness?: unknown }).__oz0ClaudeHarness = {
    command: process.execPath,
    args: [ADAPTER],
    env: {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      HTTPS_PROXY: model.url,
      HTTP_PROXY: model.url,
      https_proxy: model.url,
      http_proxy: model.url,
      NO_PROXY: "127.0.0.1",
      no_proxy: "127.0.0.1",
    },
  };
  l = await lab();
});
afterAll(async () => {
  await l?.close();
  await model?.close();
});

describe("Claude Code's ACP adapter from npm on runtime harness:claude-code", () => {
  it("runs a job end to end offline: its tool call runs through the job, its steps are in the history, its text is the answer", async () => {
    const tenant = await l.tenant(PLUGIN);
    const jobs = l.engine(NO_MODEL);
    model.reply(
      {
        calls: [{ name: "mcp__oz0__audit__note", args: { line: "opening" } }],
        usage: { input: 30, output: 9 },
      },
      { text: "Noted the opening.", usage: { input: 40, output: 6 } },
    );
    const started = await jobs.start({ tenant, agent: "claude-lab/coder", input: "note the opening" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "Noted the opening." });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    expect(model.pending).toBe(0);
    // The agent's model got oz0's prompt and the agent's tool, under the names a model sees.
    const first = JSON.stringify(model.requests[0]?.body);
    expect(first).toContain("note the opening");
    expect(first).toContain("mcp__oz0__audit__note");
    expect(model.requests[0]?.headers["x-api-key"]).toBe(KEY);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("harness:claude-code");
    const steps = ofKind(events, "model_call");
    expect(steps.map((entry) => entry.data.runtime)).toEqual(steps.map(() => "harness:claude-code"));
    expect(steps.flatMap((entry) => entry.data.calls.map((call) => call.name))).toContain("audit__note");
    expect(steps.every((entry) => entry.data.model === "default")).toBe(true);
    expect(ofKind(events, "harness_update")[0]?.data.data).toMatchObject({
      agent: "@zed-industries/claude-agent-acp",
    });
  });

  it("a deny rule takes effect inside it: the tool call is refused, and the agent told", async () => {
    const tenant = await l.tenant(PLUGIN);
    await l.runtime.policy.set(tenant, "deny", "claude-lab/audit.note");
    const jobs = l.engine(NO_MODEL);
    model.reply(
      { calls: [{ name: "mcp__oz0__audit__note", args: { line: "opening" } }] },
      { text: "I could not note it." },
    );
    const started = await jobs.start({ tenant, agent: "claude-lab/coder", input: "note the opening" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "I could not note it." });
    expect(executionsOf(started.id)).toEqual([]);
    // The refusal reached the agent's model as the tool's result.
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain("POLICY_VIOLATION");
  });

  it("an approval takes effect inside it: the job waits for a person, and the restarted agent's recorded steps are not run again", async () => {
    const tenant = await l.tenant(PLUGIN);
    await l.runtime.policy.set(tenant, "ask", "claude-lab/audit.note");
    const jobs = l.engine(NO_MODEL);
    const note = { calls: [{ name: "mcp__oz0__audit__note", args: { line: "opening" } }] };
    model.reply(note);
    const started = await jobs.start({ tenant, agent: "claude-lab/coder", input: "note the opening" });
    const held = await jobs.run(started.id, { tenant });
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "2.1" } });
    expect(executionsOf(started.id)).toEqual([]);
    const [approval] = await l.runtime.approvals.list(tenant);
    await l.runtime.approvals.approve(tenant, approval?.id ?? "", ALICE);
    // The agent starts over, makes the same call, and the job answers it from its history.
    model.reply(note, { text: "Noted after approval." });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "Noted after approval." });
    expect(executionsOf(started.id).map((call) => call.fn)).toEqual(["audit.note"]);
    const events = await l.events(started.id);
    expect(ofKind(events, "model_call").map((entry) => entry.data.step)).toEqual([1, 2, 3]);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
  });

  it("a kill switch on the harness's tools takes effect inside it: its permission requests are refused", async () => {
    const tenant = await l.tenant(PLUGIN);
    await l.runtime.killSwitches.kill(tenant, "tool", "claude-lab/claude-code", ALICE);
    const jobs = l.engine(NO_MODEL);
    model.reply(
      { calls: [{ name: "mcp__oz0__audit__note", args: { line: "opening" } }] },
      { text: "I was not allowed to note it." },
    );
    const started = await jobs.start({ tenant, agent: "claude-lab/coder", input: "note the opening" });
    const job = await jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "I was not allowed to note it." });
    expect(executionsOf(started.id)).toEqual([]);
    const [refused] = ofKind(await l.events(started.id), "tool_result");
    expect(refused?.data).toMatchObject({ ok: false, error: { code: "KILLED" } });
  });
});
