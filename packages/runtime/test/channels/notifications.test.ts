// Channel notifications and Slack's buttons, against a loopback server speaking Slack's Web API:
// a thread whose job waits for approval is told the job, the call and its exact arguments with
// approve and deny buttons; the channel's own target is told of the tenant's other approvals and
// questions once each, retried through the outbox; a click (`block_actions`, form-encoded,
// verified like an event) decides as the clicking user's member, and every attack on it
// (a bad signature, a stale timestamp, a stranger, a member who may not, a second click) decides
// nothing.
import { createHmac } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import { refusal, settle } from "./settle.js";

const CHANNELS = fileURLToPath(new URL("../../../../plugins/channels", import.meta.url));
const CLOCKWORK = join(import.meta.dirname, "../fixtures/routines/clockwork");
const HELPDESK = join(import.meta.dirname, "../fixtures/jobs/helpdesk");
const LEAKY = join(import.meta.dirname, "../fixtures/channels/leaky");
const SIGNING = "slack-signing-secret";

interface Call {
  readonly method: string;
  readonly body: Record<string, unknown>;
}

/** Slack's Web API on loopback: records each call; `fail` makes the next calls of a method fail. */
async function slackApi() {
  const calls: Call[] = [];
  const failing = new Map<string, number>();
  let ts = 0;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const method = (request.url ?? "").replace(/^\//, "");
      const parsed = JSON.parse(body) as Record<string, unknown>;
      const left = failing.get(`${method}:${String(parsed.channel)}`) ?? 0;
      if (left > 0) {
        failing.set(`${method}:${String(parsed.channel)}`, left - 1);
        response
          .writeHead(200, { "content-type": "application/json" })
          .end('{"ok":false,"error":"ratelimited"}');
        return;
      }
      calls.push({ method, body: parsed });
      ts += 1;
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ok: true, ts: `200.${ts}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    fail: (method: string, channel: string, times: number) => failing.set(`${method}:${channel}`, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function signedJson(body: unknown, at = Math.floor(Date.now() / 1000)) {
  const text = JSON.stringify(body);
  return { body: text, headers: slackHeaders(text, at) };
}

/** A click as Slack sends it: `payload=<JSON>`, form-encoded, signed over the exact body. */
function click(
  user: string,
  action: "oz0.approve" | "oz0.deny",
  approval: string,
  message: { ts: string; thread_ts?: string; blocks?: unknown[] },
  options: { at?: number; secret?: string; channel?: string } = {},
) {
  const payload = {
    type: "block_actions",
    user: { id: user },
    team: { id: "T1" },
    channel: { id: options.channel ?? "COPS" },
    message,
    actions: [{ action_id: action, value: approval, type: "button", action_ts: `${Math.random()}` }],
    response_url: "https://hooks.slack.com/actions/T1/1/x",
    trigger_id: `${Math.random()}`,
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return {
    body,
    headers: {
      ...slackHeaders(body, options.at ?? Math.floor(Date.now() / 1000), options.secret),
      "content-type": "application/x-www-form-urlencoded",
    },
  };
}

function slackHeaders(body: string, at: number, secret = SIGNING) {
  const signature = createHmac("sha256", secret).update(`v0:${at}:${body}`).digest("hex");
  return { "x-slack-request-timestamp": String(at), "x-slack-signature": `v0=${signature}` };
}

describe("channel notifications (Slack)", () => {
  let runtime: Runtime;
  let api: Awaited<ReturnType<typeof slackApi>>;
  const tenant = "notify";
  beforeAll(async () => {
    runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-notify-")),
      defaultPlugins: [],
    });
    api = await slackApi();
    const root = localAdmin("default", "cli:root");
    await runtime.identity.createTenant(root, tenant);
    await runtime.identity.addUser(root, "alice", "correct horse battery staple");
    await runtime.identity.addUser(root, "bob", "correct horse battery staple");
    await runtime.identity.addMember(localAdmin(tenant, "cli:root"), { user: "alice", role: "approver" });
    await runtime.identity.addMember(localAdmin(tenant, "cli:root"), { user: "bob", role: "runner" });
    await runtime.catalog.install(tenant, CHANNELS);
    await runtime.catalog.install(tenant, CLOCKWORK);
    await runtime.catalog.install(tenant, HELPDESK);
    await runtime.catalog.install(tenant, LEAKY);
    await runtime.services.pluginConfig.set(localAdmin(tenant), "channels", {
      slack: {
        signingSecret: SIGNING,
        botToken: "xoxb-test-token-0123456789",
        apiUrl: api.url,
        agent: "clockwork/reporter",
        members: { UALICE: "alice", UBOB: "bob", UEVE: "eve" },
        notifications: { channel: "CNOTIFY" },
      },
    });
    await runtime.policy.set(tenant, "ask", "clockwork/notes.write");
    await runtime.policy.set(tenant, "ask", "leaky/vault.put");
  });
  afterAll(async () => {
    await api?.close();
    await runtime?.close();
  });

  const receive = (request: { body: string; headers: Record<string, string> }) =>
    runtime.channels.receive({ tenant, plugin: "channels", channel: "slack", ...request });

  it("lists the Slack channel as supporting notifications, switched on by its config", async () => {
    const listed = await runtime.services.channels.list(localAdmin(tenant));
    expect(listed.find((entry) => entry.channel === "channels/slack")).toMatchObject({
      supportsNotifications: true,
      notificationsEnabled: true,
    });
  });

  it("tells the thread the job, the call with its exact arguments and how to answer, with approve and deny buttons; a click decides as the clicking member, and every attack decides nothing", async () => {
    await receive(
      signedJson({
        type: "event_callback",
        event_id: "Ev1",
        event: { type: "message", channel: "COPS", user: "UALICE", text: "sweep", ts: "100.1" },
      }),
    );
    await settle(runtime, tenant);
    const [approval] = await runtime.approvals.list(tenant, {});
    expect(approval).toMatchObject({ address: "clockwork/notes.write", args: { text: "swept" } });
    const id = approval!.id;
    const posted = api.calls.filter((call) => call.method === "chat.postMessage");
    // Told in its thread only: the thread's job is not the target's to hear of as well.
    expect(posted.map((call) => [call.body.channel, call.body.thread_ts])).toEqual([["COPS", "100.1"]]);
    const told = posted[0]!.body;
    expect(told.text).toBe(
      [
        `job ${approval!.job} (clockwork/reporter) waits for approval ${id}: it would call clockwork/notes.write with`,
        JSON.stringify({ text: "swept" }, null, 2),
        "held by the rule clockwork/notes.write.",
        `Reply "approve ${id}" or "deny ${id} <reason>".`,
      ].join("\n"),
    );
    const blocks = told.blocks as { type: string; elements?: { action_id?: string; value?: string }[] }[];
    const buttons = blocks.find((block) => block.type === "actions")!.elements!;
    expect(buttons.map((button) => [button.action_id, button.value])).toEqual([
      ["oz0.approve", id],
      ["oz0.deny", id],
    ]);
    const texts = blocks.map((block) => (block as { text?: { text?: string } }).text?.text);
    expect(texts).toContain(`\`\`\`${JSON.stringify({ text: "swept" }, null, 2)}\`\`\``);
    const message = { ts: "200.1", thread_ts: "100.1", blocks };
    const before = api.calls.length;

    // A bad signature and a stale timestamp are refused before anything is stored.
    const forged = click("UALICE", "oz0.approve", id, message, { secret: "not-the-signing-secret" });
    const stale = click("UALICE", "oz0.approve", id, message, { at: Math.floor(Date.now() / 1000) - 600 });
    for (const request of [forged, stale]) {
      const error = await refusal(receive(request));
      expect(isOz0Error(error, "UNAUTHENTICATED")).toBe(true);
    }
    // A Slack user mapped to no member, and a member who is no approver: refused to them alone.
    await receive(click("UEVE", "oz0.approve", id, message));
    await receive(click("UNOBODY", "oz0.deny", id, message));
    await receive(click("UBOB", "oz0.approve", id, message));
    await settle(runtime, tenant);
    expect((await runtime.approvals.get(tenant, id)).status).toBe("pending");
    const refusals = api.calls.slice(before);
    expect(refusals.map((call) => [call.method, call.body.user, call.body.thread_ts])).toEqual([
      ["chat.postEphemeral", "UEVE", "100.1"],
      ["chat.postEphemeral", "UNOBODY", "100.1"],
      ["chat.postEphemeral", "UBOB", "100.1"],
    ]);
    expect(refusals[0]!.body.text).toBe(
      `refused: UEVE is not mapped to a member of tenant ${tenant}, so it may not approve ${id}.`,
    );
    expect(refusals[1]!.body.text).toBe(
      `refused: UNOBODY is not mapped to a member of tenant ${tenant}, so it may not deny ${id}.`,
    );
    expect(refusals[2]!.body.text).toMatch(/^refused: .*approver/);

    // The approver's click decides it; the message loses its buttons and says who decided.
    const at = api.calls.length;
    await receive(click("UALICE", "oz0.approve", id, message));
    await settle(runtime, tenant);
    expect(await runtime.approvals.get(tenant, id)).toMatchObject({
      status: "approved",
      decidedBy: "user:alice",
    });
    const update = api.calls.slice(at).find((call) => call.method === "chat.update")!;
    expect(update.body).toMatchObject({
      channel: "COPS",
      ts: "200.1",
      text: `approved ${id} as user:alice.`,
    });
    expect((update.body.blocks as { type: string }[]).map((block) => block.type)).toEqual([
      "section",
      "section",
      "context",
      "context",
    ]);
    // The job went on: its answer follows in the thread.
    expect(
      api.calls
        .slice(at)
        .filter((call) => call.method === "chat.postMessage")
        .map((call) => call.body.text),
    ).toEqual(["done"]);

    // A second click, either way, changes nothing and says so to the one who clicked.
    const after = api.calls.length;
    await receive(click("UALICE", "oz0.approve", id, message));
    await receive(click("UALICE", "oz0.deny", id, message));
    await settle(runtime, tenant);
    expect(await runtime.approvals.get(tenant, id)).toMatchObject({
      status: "approved",
      decidedBy: "user:alice",
    });
    const second = api.calls.slice(after);
    expect(second.map((call) => call.method)).toEqual(["chat.postEphemeral", "chat.postEphemeral"]);
    expect(second[0]!.body.text).toBe(`${id} was already approved by user:alice; nothing changed.`);
    expect(second[1]!.body.text).toMatch(/^refused: /);
  });

  it("tells the channel's target of the tenant's other approvals and questions once each, through the outbox's retries", async () => {
    api.fail("chat.postMessage", "CNOTIFY", 1);
    const held = await runtime.jobs.start({ tenant, agent: "clockwork/reporter", input: "sweep" });
    const asking = await runtime.jobs.start({ tenant, agent: "helpdesk/asker", input: "route it" });
    await runtime.jobs.run(held.id, { tenant });
    await runtime.jobs.run(asking.id, { tenant });
    const [approval] = (await runtime.approvals.list(tenant, {})).filter((one) => one.job === held.id);
    expect(approval).toBeDefined();
    const before = api.calls.length;
    await runtime.channels.drain(tenant);
    const rows = () =>
      runtime.store.db
        .selectFrom("channel_messages")
        .select(["event_key", "state", "attempts", "last_error"])
        .where("tenant", "=", tenant)
        .where("event_key", "like", "notify:%")
        .orderBy("event_key")
        .execute();
    // The first send failed (Slack said ratelimited): kept for its retry, not sent again meanwhile.
    const failed = (await rows()).filter((row) => row.last_error !== null);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.last_error).toBe("chat.postMessage refused: ratelimited");
    await runtime.channels.drain(tenant);
    await runtime.store.db
      .updateTable("channel_messages")
      .set({ next_at: 0 })
      .where("tenant", "=", tenant)
      .where("state", "=", "delivering")
      .execute();
    await runtime.channels.drain(tenant);
    await runtime.channels.drain(tenant);
    const asks = (await runtime.jobs.get(asking.id, tenant)).waitingFor as { kind: string; callId: string };
    expect(asks.kind).toBe("answer");
    expect((await rows()).map((row) => [row.event_key, row.state])).toEqual(
      [
        [`notify:approval:${approval!.id}`, "delivered"],
        [`notify:question:${asking.id}:${asks.callId}`, "delivered"],
      ].sort(),
    );
    const sent = api.calls.slice(before).filter((call) => call.body.channel === "CNOTIFY");
    expect(sent).toHaveLength(2);
    const approvalNote = sent.find((call) => String(call.body.text).includes(approval!.id))!;
    expect(approvalNote.body.text).toContain(
      `job ${held.id} (clockwork/reporter) waits for approval ${approval!.id}`,
    );
    expect(JSON.stringify(approvalNote.body.blocks)).toContain('"action_id":"oz0.approve"');
    const question = sent.find((call) => call.body !== approvalNote.body)!;
    expect(question.body.text).toBe(
      `job ${asking.id} (helpdesk/asker) asks: Which queue?\nReply "answer ${asking.id} <your answer>".`,
    );
    // A click on the target's message decides as well.
    await receive(
      click("UALICE", "oz0.deny", approval!.id, { ts: "200.9", blocks: [] }, { channel: "CNOTIFY" }),
    );
    await settle(runtime, tenant);
    expect((await runtime.approvals.get(tenant, approval!.id)).status).toBe("denied");
    const update = api.calls.findLast((call) => call.method === "chat.update")!;
    expect(update.body).toMatchObject({ channel: "CNOTIFY", ts: "200.9" });
  });

  it("shows a held call's arguments with the tenant's secrets redacted, as the job's history holds them", async () => {
    const job = await runtime.jobs.start({ tenant, agent: "leaky/leaker", input: "store it" });
    await runtime.jobs.run(job.id, { tenant });
    const [approval] = (await runtime.approvals.list(tenant, {})).filter((one) => one.job === job.id);
    expect(approval).toBeDefined();
    const before = api.calls.length;
    await runtime.channels.drain(tenant);
    const sent = api.calls.slice(before).filter((call) => call.body.channel === "CNOTIFY");
    expect(sent).toHaveLength(1);
    const told = JSON.stringify(sent[0]!.body);
    expect(told).not.toContain("xoxb-test-token-0123456789");
    expect(sent[0]!.body.text).toContain(JSON.stringify({ key: "slack", value: "[redacted]" }, null, 2));
  });
  it("drains the outbox when queueing notifications fails, and throws the fault after it", async () => {
    const pending = await runtime.approvals.list(tenant, {});
    expect(pending.length).toBeGreaterThan(0);
    const { message } = await runtime.channels.send(tenant, {
      channel: "channels/slack",
      channelId: "COPS",
      text: "still delivered",
      by: "cli:test",
    });
    const registry = runtime.channels.registry;
    const list = registry.list.bind(registry);
    let calls = 0;
    // Only the notification scan's look fails: it runs first in a pass.
    registry.list = (name: string) =>
      calls++ === 0 ? Promise.reject(new Error("a plugin no longer loads")) : list(name);
    try {
      await expect(runtime.channels.drain(tenant)).rejects.toThrow("a plugin no longer loads");
    } finally {
      registry.list = list;
    }
    const row = await runtime.store.db
      .selectFrom("channel_messages")
      .select("state")
      .where("id", "=", message)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe("delivered");
    expect(api.calls.at(-1)?.body).toMatchObject({ channel: "COPS", text: "still delivered" });
  });
});

describe("channel notifications (webhook)", () => {
  it("carries the notification in the thread's answer, and POSTs the tenant's other approvals to notifications.url, signed", async () => {
    const runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-notify-webhook-")),
      defaultPlugins: [],
    });
    const seen: { path: string; signature: string; timestamp: string; body: string }[] = [];
    const server: Server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        seen.push({
          path: request.url ?? "",
          signature: String(request.headers["x-oz0-signature"]),
          timestamp: String(request.headers["x-oz0-timestamp"]),
          body,
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const secret = "whsec-test-0123456789abcdef";
    const tenant = "hooked";
    await runtime.identity.createTenant(localAdmin("default", "cli:root"), tenant);
    await runtime.catalog.install(tenant, CHANNELS);
    await runtime.catalog.install(tenant, CLOCKWORK);
    await runtime.services.pluginConfig.set(localAdmin(tenant), "channels", {
      webhook: {
        secret,
        url: `${url}/answers`,
        agent: "clockwork/reporter",
        notifications: { url: `${url}/pager` },
      },
    });
    await runtime.policy.set(tenant, "ask", "clockwork/notes.write");
    const text = JSON.stringify({ id: "m1", channel: "ops", sender: "u1", thread: "t1", text: "sweep" });
    const at = Math.floor(Date.now() / 1000);
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      body: text,
      headers: {
        "x-oz0-timestamp": String(at),
        "x-oz0-signature": `sha256=${createHmac("sha256", secret).update(`${at}.${text}`).digest("hex")}`,
      },
    });
    await settle(runtime, tenant);
    const [fromThread] = await runtime.approvals.list(tenant, {});
    const answer = JSON.parse(seen.find((entry) => entry.path === "/answers")!.body);
    expect(answer).toMatchObject({
      channel: "ops",
      thread: "t1",
      notification: {
        title: "Approval needed: clockwork/notes.write",
        action: {
          kind: "approval",
          approval: fromThread!.id,
          job: fromThread!.job,
          call: { address: "clockwork/notes.write", args: { text: "swept" } },
        },
      },
    });
    expect(answer.text).toBe(answer.notification.body);
    expect(seen.filter((entry) => entry.path === "/pager")).toEqual([]);
    const other = await runtime.jobs.start({ tenant, agent: "clockwork/reporter", input: "sweep" });
    await runtime.jobs.run(other.id, { tenant });
    await runtime.channels.drain(tenant);
    await runtime.channels.drain(tenant);
    const paged = seen.filter((entry) => entry.path === "/pager");
    expect(paged).toHaveLength(1);
    const expected = createHmac("sha256", secret)
      .update(`${paged[0]!.timestamp}.${paged[0]!.body}`)
      .digest("hex");
    expect(paged[0]!.signature).toBe(`sha256=${expected}`);
    expect(JSON.parse(paged[0]!.body)).toMatchObject({
      kind: "notification",
      notification: { action: { kind: "approval", job: other.id } },
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.close();
  });
});
