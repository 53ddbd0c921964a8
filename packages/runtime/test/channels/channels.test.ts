// Channels end to end, over the built-in channels plugin: a verified inbound event becomes a
// chat turn (the thread is the conversation) and its answer goes back through the channel's
// deliver from the outbox; unverified and replayed requests are refused before anything is
// stored; delivery survives the process dying between the answer and the delivery, retries with
// backoff, and on PostgreSQL two nodes never deliver one message twice.
import { createHmac } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error, SurfaceEnvelope } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { refusal, settle } from "./settle.js";

const CHANNELS = fileURLToPath(new URL("../../../../plugins/channels", import.meta.url));
const DESK = join(import.meta.dirname, "../fixtures/channels/desk");
const DOORMAN = join(import.meta.dirname, "../fixtures/channels/doorman");
const CLOCKWORK = join(import.meta.dirname, "../fixtures/routines/clockwork");
const LISTENER = join(import.meta.dirname, "../fixtures/channels/listener");
const FLAKY = join(import.meta.dirname, "../fixtures/channels/flaky");
const SECRET = "whsec-test-0123456789abcdef";
const SLACK_SECRET = "slack-signing-secret";

/** A loopback server that records each POST and answers as `answer` says (Slack's wire format by default). */
async function receiver(
  answer: (path: string, body: string) => { status: number; body: unknown } = () => ({
    status: 200,
    body: { ok: true, ts: "1.2" },
  }),
) {
  const seen: { path: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      seen.push({ path: request.url ?? "", headers: request.headers, body });
      const { status, body: out } = answer(request.url ?? "", body);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function signed(body: unknown, at = Math.floor(Date.now() / 1000), secret = SECRET) {
  const text = JSON.stringify(body);
  const signature = createHmac("sha256", secret).update(`${at}.${text}`).digest("hex");
  return { body: text, headers: { "x-oz0-timestamp": String(at), "x-oz0-signature": `sha256=${signature}` } };
}

function slackSigned(body: unknown, at = Math.floor(Date.now() / 1000)) {
  const text = JSON.stringify(body);
  const signature = createHmac("sha256", SLACK_SECRET).update(`v0:${at}:${text}`).digest("hex");
  return {
    body: text,
    headers: { "x-slack-request-timestamp": String(at), "x-slack-signature": `v0=${signature}` },
  };
}

async function states(runtime: Runtime, tenant: string) {
  return (
    await runtime.store.db
      .selectFrom("channel_messages")
      .select(["state", "attempts"])
      .where("tenant", "=", tenant)
      .orderBy("created_at")
      .orderBy("id")
      .execute()
  ).map((row) => row.state);
}

async function tenantWith(runtime: Runtime, tenant: string, config: Record<string, unknown>) {
  await runtime.catalog.install(tenant, CHANNELS);
  await runtime.catalog.install(tenant, DESK);
  await runtime.services.pluginConfig.set(localAdmin(tenant), "channels", config);
}

const engines = engineFixtures();
afterAll(() => disposeFixtures(engines));

describe.each(engines)("channels on $label", (fixture) => {
  let runtime: Runtime;
  let tenants = 0;
  const fresh = () => `ch-${++tenants}`;
  beforeAll(async () => {
    const options = await fixture.fresh();
    runtime = await Runtime.open({
      ...options,
      home: options.home ?? (await mkdtemp(join(tmpdir(), "oz0-channels-"))),
      defaultPlugins: [],
    });
  });
  afterAll(() => runtime?.close());

  it("webhook: a verified message becomes a chat turn, and the answer is POSTed back signed with the secret", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/answers`, agent: "desk/helper" },
    });
    const message = signed({ id: "m1", channel: "support", sender: "u1", thread: "t1", text: "hello" });
    const result = await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...message,
    });
    expect(result).toMatchObject({ kind: "event", outcome: "accepted" });
    await settle(runtime, tenant);
    const answers = out.seen.filter((entry) => entry.path === "/answers");
    // The routine of event: channel:channels/webhook answers too, from its own job.
    expect(answers.length).toBe(2);
    for (const answer of answers) {
      const at = answer.headers["x-oz0-timestamp"] as string;
      const expected = createHmac("sha256", SECRET).update(`${at}.${answer.body}`).digest("hex");
      expect(answer.headers["x-oz0-signature"]).toBe(`sha256=${expected}`);
      expect(JSON.parse(answer.body)).toMatchObject({ channel: "support", thread: "t1", inReplyTo: "m1" });
    }
    const thread = await runtime.store.db
      .selectFrom("channel_threads")
      .selectAll()
      .where("tenant", "=", tenant)
      .execute();
    expect(thread).toHaveLength(1);
    const chat = await runtime.jobs.get(thread[0]!.job, tenant);
    expect(chat).toMatchObject({ mode: "chat", status: "waiting", agent: "desk/helper" });
    expect(answers.map((entry) => JSON.parse(entry.body).job)).toContain(chat.id);
    expect(await states(runtime, tenant)).toEqual(["delivered", "delivered"]);
    const listed = await runtime.services.channels.list(localAdmin(tenant));
    expect(listed.find((entry) => entry.channel === "channels/webhook")).toMatchObject({
      configured: true,
      notificationsEnabled: false,
      outbox: { delivered: 2, failed: 0 },
    });
    expect(listed.find((entry) => entry.channel === "channels/slack")).toMatchObject({ configured: false });
    await out.close();
  });

  it("records a channel-fired routine with cause channel (regression: it was recorded as webhook)", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/answers`, agent: "desk/helper" },
    });
    const message = signed({ id: "m-cause", channel: "support", sender: "u1", text: "hello" });
    await runtime.channels.receive({ tenant, plugin: "channels", channel: "webhook", ...message });
    await settle(runtime, tenant);
    const fires = await runtime.services.routines.history(localAdmin(tenant), "desk/on-message");
    expect(fires.map((fire) => [fire.cause, fire.outcome])).toEqual([["channel", "started"]]);
    const [routine] = await runtime.services.routines.list(localAdmin(tenant));
    expect(routine?.last).toMatchObject({ cause: "channel" });
    await out.close();
  });

  it("refuses a bad signature, a replayed timestamp and an unknown channel alike, storing nothing", async () => {
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: "http://127.0.0.1:9/", agent: "desk/helper" },
    });
    const good = signed({ channel: "c", sender: "u", text: "hi" });
    const bad = { ...good, headers: { ...good.headers, "x-oz0-signature": `sha256=${"0".repeat(64)}` } };
    const stale = signed({ channel: "c", sender: "u", text: "hi" }, Math.floor(Date.now() / 1000) - 600);
    const other = signed({ channel: "c", sender: "u", text: "hi" }, undefined, "another-secret-0123456789");
    for (const request of [bad, stale, other]) {
      const error = await refusal(
        runtime.channels.receive({ tenant, plugin: "channels", channel: "webhook", ...request }),
      );
      expect(isOz0Error(error, "UNAUTHENTICATED")).toBe(true);
      expect((error as { data: { reason: string } }).data.reason).toBe("signature");
    }
    const unknown = await refusal(
      runtime.channels.receive({ tenant, plugin: "channels", channel: "nosuch", ...good }),
    );
    const unconfigured = await refusal(
      runtime.channels.receive({ tenant, plugin: "channels", channel: "slack", ...good }),
    );
    const noTenant = await refusal(
      runtime.channels.receive({ tenant: "nosuch", plugin: "channels", channel: "webhook", ...good }),
    );
    for (const error of [unknown, unconfigured, noTenant]) {
      expect(isOz0Error(error, "UNAUTHENTICATED")).toBe(true);
      expect((error as { data: { reason: string } }).data.reason).toBe("unverified");
    }
    expect(await states(runtime, tenant)).toEqual([]);
    // The same signed event twice within the window is stored once.
    const once = signed({ id: "dup", channel: "c", sender: "u", text: "hi" });
    await runtime.channels.receive({ tenant, plugin: "channels", channel: "webhook", ...once });
    const again = await runtime.channels.receive({ tenant, plugin: "channels", channel: "webhook", ...once });
    expect(again).toMatchObject({ outcome: "duplicate" });
    expect(await states(runtime, tenant)).toEqual(["inbound"]);
  });

  it("slack: answers url_verification, verifies v0 signatures, and a thread's messages are turns of one chat posted with thread_ts", async () => {
    const slack = await receiver();
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      slack: { signingSecret: SLACK_SECRET, botToken: "xoxb-test", apiUrl: slack.url, agent: "desk/helper" },
    });
    const challenge = slackSigned({ type: "url_verification", challenge: "abc123", token: "x" });
    expect(
      await runtime.channels.receive({ tenant, plugin: "channels", channel: "slack", ...challenge }),
    ).toEqual({
      kind: "reply",
      reply: { challenge: "abc123" },
    });
    const event = (id: string, ts: string, thread?: string) =>
      slackSigned({
        type: "event_callback",
        team_id: "T1",
        event_id: id,
        event: {
          type: "message",
          channel: "C1",
          user: "U1",
          text: `hi ${id}`,
          ts,
          ...(thread ? { thread_ts: thread } : {}),
        },
      });
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "slack",
      ...event("Ev1", "100.1"),
    });
    await settle(runtime, tenant);
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "slack",
      ...event("Ev2", "100.2", "100.1"),
    });
    await settle(runtime, tenant);
    const posts = slack.seen.filter((entry) => entry.path === "/chat.postMessage");
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post.headers.authorization).toBe("Bearer xoxb-test");
      expect(JSON.parse(post.body)).toMatchObject({ channel: "C1", thread_ts: "100.1" });
    }
    const threads = await runtime.store.db
      .selectFrom("channel_threads")
      .selectAll()
      .where("tenant", "=", tenant)
      .execute();
    expect(threads).toHaveLength(1);
    const events = await runtime.jobs.events(threads[0]!.job, { tenant });
    expect(events.filter((entry) => entry.kind === "user_message")).toHaveLength(1);
    // A bot's own message is no one talking to the agent.
    const own = slackSigned({
      type: "event_callback",
      event_id: "Ev3",
      event: { type: "message", channel: "C1", user: "U1", bot_id: "B1", text: "echo", ts: "100.3" },
    });
    expect(
      await runtime.channels.receive({ tenant, plugin: "channels", channel: "slack", ...own }),
    ).toMatchObject({
      outcome: "ignored",
    });
    await slack.close();
  });

  it("answers a thread whose channel names an agent the tenant does not have, rather than retrying it", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/nobody" },
    });
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u", thread: "t", text: "hi" }),
    });
    await settle(runtime, tenant);
    expect(JSON.parse(out.seen[0]!.body).text).toMatch(/^refused: .*nobody/);
    expect(await states(runtime, tenant)).toEqual(["delivered"]);
    await out.close();
  });

  it("keeps the channels' secrets out of the stored config and shows them masked", async () => {
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: "http://127.0.0.1:9/a" },
      slack: { signingSecret: SLACK_SECRET, botToken: "xoxb-secret-token" },
    });
    const rows = await runtime.store.db
      .selectFrom("settings")
      .select("value")
      .where("tenant", "=", tenant)
      .execute();
    const stored = rows.map((row) => String(row.value)).join("\n");
    for (const secret of [SECRET, SLACK_SECRET, "xoxb-secret-token"]) expect(stored).not.toContain(secret);
    const shown = await runtime.services.pluginConfig.show(localAdmin(tenant), "channels");
    expect(shown.config).toMatchObject({
      webhook: { secret: "[redacted]" },
      slack: { signingSecret: "[redacted]", botToken: "[redacted]" },
    });
  });

  it("sends an operator's message out through the channel's outbox", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, { webhook: { secret: SECRET, url: `${out.url}/a` } });
    const sent = await runtime.services.channels.send(localAdmin(tenant), {
      channel: "channels/webhook",
      channelId: "ops",
      threadId: "t-9",
      text: "deploy done",
    });
    await settle(runtime, tenant);
    expect(JSON.parse(out.seen[0]!.body)).toMatchObject({
      channel: "ops",
      thread: "t-9",
      text: "deploy done",
    });
    expect(await states(runtime, tenant)).toEqual(["delivered"]);
    expect(sent.message).toMatch(/^chm_/);
    await out.close();
  });
  it("delivers a thread's messages in the order they arrived, many within one millisecond", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, { webhook: { secret: SECRET, url: `${out.url}/a` } });
    // Sent back to back, most share their `created_at`: the rows' IDs alone keep their order.
    const texts = Array.from({ length: 40 }, (_, index) => `step ${index}`);
    for (const text of texts) {
      await runtime.services.channels.send(localAdmin(tenant), {
        channel: "channels/webhook",
        channelId: "ops",
        threadId: "t-1",
        text,
      });
    }
    await settle(runtime, tenant);
    expect(out.seen.map((request) => JSON.parse(request.body).text)).toEqual(texts);
    await out.close();
  });

  it("retries a failed delivery with backoff, then delivers it", async () => {
    let fail = 2;
    const out = await receiver(() => (fail-- > 0 ? { status: 503, body: {} } : { status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/helper" },
    });
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u", text: "hi" }),
    });
    await settle(runtime, tenant);
    const row = await runtime.store.db
      .selectFrom("channel_messages")
      .selectAll()
      .where("tenant", "=", tenant)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      state: "delivering",
      attempts: 1,
      last_error: "the webhook URL answered 503",
    });
    // Not before its backoff: the next attempt waits.
    expect(await runtime.channels.drain(tenant)).toBe(0);
    await runtime.store.db
      .updateTable("channel_messages")
      .set({ next_at: 0 })
      .where("tenant", "=", tenant)
      .execute();
    await runtime.channels.drain(tenant);
    await runtime.store.db
      .updateTable("channel_messages")
      .set({ next_at: 0 })
      .where("tenant", "=", tenant)
      .execute();
    await runtime.channels.drain(tenant);
    expect(
      await runtime.store.db
        .selectFrom("channel_messages")
        .select(["state", "attempts"])
        .where("tenant", "=", tenant)
        .executeTakeFirst(),
    ).toEqual({ state: "delivered", attempts: 3 });
    expect(out.seen).toHaveLength(3);
    await out.close();
  });

  it("refuses an approval or denial from a sender not mapped to a member of the tenant (deny by default)", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = fresh();
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, members: { u9: "nobody" } },
    });
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "stranger", text: "approve ap_123" }),
    });
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u9", text: "hi", action: { kind: "deny", approval: "ap_123" } }),
    });
    await settle(runtime, tenant);
    const replies = out.seen.map((entry) => JSON.parse(entry.body).text as string).sort();
    // u9 maps to a user who is no member of the tenant: refused alike, nothing decided.
    expect(replies).toEqual([
      `refused: stranger is not mapped to a member of tenant ${tenant}, so it may not approve ap_123.`,
      `refused: u9 is not mapped to a member of tenant ${tenant}, so it may not deny ap_123.`,
    ]);
    await out.close();
  });
});

describe("approvals from a channel", () => {
  it("tells the thread a job waits for approval; a mapped approver's reply decides it, and the answer follows", async () => {
    const runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-approve-")),
      defaultPlugins: [],
    });
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "approvals";
    const root = localAdmin("default", "cli:root");
    await runtime.identity.createTenant(root, tenant);
    await runtime.identity.addUser(root, "alice", "correct horse battery staple");
    await runtime.identity.addUser(root, "bob", "correct horse battery staple");
    await runtime.identity.addMember(localAdmin(tenant, "cli:root"), { user: "alice", role: "approver" });
    await runtime.identity.addMember(localAdmin(tenant, "cli:root"), { user: "bob", role: "runner" });
    await runtime.catalog.install(tenant, CHANNELS);
    await runtime.catalog.install(tenant, CLOCKWORK);
    await runtime.services.pluginConfig.set(localAdmin(tenant), "channels", {
      webhook: {
        secret: SECRET,
        url: `${out.url}/a`,
        agent: "clockwork/reporter",
        members: { "u-alice": "alice", "u-bob": "bob" },
      },
    });
    await runtime.policy.set(tenant, "ask", "clockwork/notes.write");
    const say = (sender: string, text: string) =>
      runtime.channels.receive({
        tenant,
        plugin: "channels",
        channel: "webhook",
        ...signed({ channel: "ops", sender, thread: "t", text }),
      });
    await say("u-alice", "sweep");
    await settle(runtime, tenant);
    const texts = () => out.seen.map((entry) => JSON.parse(entry.body).text as string);
    const [approval] = await runtime.approvals.list(tenant, {});
    expect(approval).toBeDefined();
    expect(texts()).toEqual([
      `job ${approval!.job} waits for approval ${approval!.id}. Reply "approve ${approval!.id}" or "deny ${approval!.id} <reason>".`,
    ]);
    // A member without the approver role is refused by the approvals service.
    await say("u-bob", `approve ${approval!.id}`);
    await settle(runtime, tenant);
    expect(texts()[1]).toMatch(/^refused: /);
    expect((await runtime.approvals.get(tenant, approval!.id)).status).toBe("pending");
    await say("u-alice", `approve ${approval!.id} looks fine`);
    await settle(runtime, tenant);
    expect((await runtime.approvals.get(tenant, approval!.id)).status).toBe("approved");
    expect(texts().slice(2).sort()).toEqual([`approved ${approval!.id} as user:alice.`, "done"].sort());
    await out.close();
    await runtime.close();
  });
});

describe("a channel's own listener", () => {
  interface Seen {
    started: number;
    stopped: number;
    submit?: (envelope: SurfaceEnvelope) => Promise<void>;
    delivered: { to: string; text: string }[];
  }
  const seen = () => (globalThis as { __listener?: Seen }).__listener!;

  it("runs as the runtime channel:<name> of a runtime host: started once, hands messages in through submit, stopped when its plugin is removed", async () => {
    const runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-listener-")),
      defaultPlugins: [],
    });
    const tenant = "listening";
    await runtime.catalog.install(tenant, DESK);
    await runtime.catalog.install(tenant, LISTENER);
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    const before = { ...seen() };
    const host = runtime.pluginRuntimes.host({ node: "node-a", tenant });
    try {
      await host.pass();
      await host.settled();
      await host.pass();
      await host.settled();
      expect(seen()).toMatchObject({ started: before.started + 1, stopped: before.stopped });
      const [status] = await runtime.services.plugins.status(localAdmin(tenant), "listener");
      expect(status?.runtimes).toEqual([
        expect.objectContaining({ runtime: "channel:pager", state: "running", node: "node-a" }),
      ]);
      const delivered = seen().delivered.length;
      await seen().submit!(
        new SurfaceEnvelope({ surfaceType: "pager", channelId: "p", senderId: "ann", content: "hi" }),
      );
      await settle(runtime, tenant);
      expect(seen().delivered).toHaveLength(delivered + 1);
      expect(seen().delivered.at(-1)!.to).toBe("ann");
      await runtime.catalog.remove(tenant, "listener");
      await host.pass();
      await host.settled();
      expect(seen()).toMatchObject({ started: before.started + 1, stopped: before.stopped + 1 });
    } finally {
      await host.stop();
      await runtime.close();
    }
  });

  it("a listener that calls fail is stopped and restarted with backoff, and its status says so", async () => {
    const runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-flaky-")),
      defaultPlugins: [],
    });
    const tenant = "flaky";
    await runtime.catalog.install(tenant, FLAKY);
    // The backoff is an hour, so the restart it schedules does not come during the test.
    const host = runtime.pluginRuntimes.host({ node: "node-a", tenant, restart: { baseMs: 3_600_000 } });
    try {
      await host.pass();
      await host.settled();
      await new Promise((resolve) => setImmediate(resolve));
      await host.settled();
      expect((globalThis as { __flaky?: { started: number } }).__flaky?.started).toBe(1);
      expect(host.running().get(`${tenant}/flaky/channel:socket`)).toMatchObject({
        state: "restarting",
        restarts: 1,
        lastError: "the socket dropped",
      });
    } finally {
      await host.stop();
      await runtime.close();
    }
  });

  it("the drainer beside a worker starts no listener: only a runtime host does", async () => {
    const runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-drainer-")),
      defaultPlugins: [],
    });
    const tenant = "draining";
    await runtime.catalog.install(tenant, DESK);
    await runtime.catalog.install(tenant, LISTENER);
    const before = { ...seen() };
    const drainer = runtime.channelDrainer({ tenant, pollMs: 20 });
    drainer.start();
    // The loop's first pass runs as it starts; stop waits for the pass under way.
    await runtime.channels.drain(tenant);
    await drainer.stop();
    expect(seen()).toMatchObject({ started: before.started, stopped: before.stopped });
    await runtime.close();
  });
});

describe("channels' listeners in scale-out", () => {
  const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");
  afterAll(() => disposeFixtures(postgres));
  const seen = () => (globalThis as { __listener?: { started: number; stopped: number } }).__listener!;

  it.each(postgres)(
    "two runtimes with hosts on $label: exactly one starts the channel's listener; the other takes it over when that one stops",
    async (fixture) => {
      const options = await fixture.fresh();
      const home = await mkdtemp(join(tmpdir(), "oz0-ch-listeners-"));
      const a = await Runtime.open({ ...options, home, defaultPlugins: [] });
      const b = await Runtime.open({ ...options, home, defaultPlugins: [] });
      const tenant = "listeners";
      const hostA = a.pluginRuntimes.host({ node: "node-a", tenant, leaseMs: 60_000 });
      const hostB = b.pluginRuntimes.host({ node: "node-b", tenant, leaseMs: 60_000 });
      try {
        await a.catalog.install(tenant, DESK);
        await a.catalog.install(tenant, LISTENER);
        // The fixture's module keeps one record for the process: counts are taken from here on.
        (globalThis as { __listener?: unknown }).__listener ??= { started: 0, stopped: 0, delivered: [] };
        const before = { ...seen() };
        const moved = (started: number, stopped: number) => ({
          started: before.started + started,
          stopped: before.stopped + stopped,
        });
        for (let round = 0; round < 2; round += 1) {
          await Promise.all([hostA.pass(), hostB.pass()]);
          await Promise.all([hostA.settled(), hostB.settled()]);
        }
        expect(seen()).toMatchObject(moved(1, 0));
        const rows = await a.store.db
          .selectFrom("plugin_runtimes")
          .select(["plugin", "runtime", "node", "state"])
          .where("tenant", "=", tenant)
          .execute();
        expect(rows).toEqual([
          { plugin: "listener", runtime: "channel:pager", node: expect.any(String), state: "running" },
        ]);
        const [holder, other] = rows[0]!.node === "node-a" ? [hostA, hostB] : [hostB, hostA];
        await holder.stop();
        expect(seen()).toMatchObject(moved(1, 1));
        await other.pass();
        await other.settled();
        expect(seen()).toMatchObject(moved(2, 1));
      } finally {
        await hostA.stop();
        await hostB.stop();
        await a.close();
        await b.close();
      }
    },
  );
});

describe("channels' hook points", () => {
  let runtime: Runtime;
  const heard = () => (globalThis as { __channelHooks?: Record<string, unknown>[] }).__channelHooks ?? [];
  beforeAll(async () => {
    runtime = await Runtime.open({
      memory: true,
      home: await mkdtemp(join(tmpdir(), "oz0-channels-hooks-")),
      defaultPlugins: [],
    });
  });
  afterAll(() => runtime?.close());

  it("pre_sensor_event refuses or rewrites an inbound event, and post_sensor_event hears each outcome", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "sensors";
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/helper" },
    });
    await runtime.catalog.install(tenant, DOORMAN);
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    heard().length = 0;
    const refused = await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u", text: "a forbidden word" }),
    });
    expect(refused).toMatchObject({
      outcome: "refused",
      reason: expect.stringContaining("No forbidden words"),
    });
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u", text: "ping" }),
    });
    const stored = await runtime.store.db
      .selectFrom("channel_messages")
      .select("envelope")
      .where("tenant", "=", tenant)
      .execute();
    expect(stored.map((row) => JSON.parse(row.envelope).content)).toEqual(["pong"]);
    expect(heard().filter((entry) => entry.hook === "post_sensor_event")).toEqual([
      { hook: "post_sensor_event", outcome: "refused", content: "a forbidden word" },
      { hook: "post_sensor_event", outcome: "accepted", content: "pong" },
    ]);
    await out.close();
  });

  it("pre_session_access refuses a thread's session, and post_session_access hears it opened and continued", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "sessions";
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/helper" },
    });
    await runtime.catalog.install(tenant, DOORMAN);
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    heard().length = 0;
    const say = (sender: string, text: string) =>
      runtime.channels.receive({
        tenant,
        plugin: "channels",
        channel: "webhook",
        ...signed({ channel: "c", sender, thread: sender, text }),
      });
    await say("blocked", "hello");
    await settle(runtime, tenant);
    expect(JSON.parse(out.seen[0]!.body).text).toMatch(/^refused: .*This sender may not chat/);
    expect(
      await runtime.store.db.selectFrom("channel_threads").selectAll().where("tenant", "=", tenant).execute(),
    ).toEqual([]);
    await say("alice", "hello");
    await settle(runtime, tenant);
    await say("alice", "again");
    await settle(runtime, tenant);
    const sessions = heard().filter((entry) => entry.hook === "post_session_access");
    expect(sessions.map((entry) => entry.access)).toEqual(["open", "continue"]);
    expect(sessions[0]!.job).toBe(sessions[1]!.job);
    expect(sessions[0]!.target).toBe("desk/helper");
    await out.close();
  });
  it("keeps what a message's hooks recorded in the history of the chat it becomes, and in the audit log when it becomes none", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "records";
    await tenantWith(runtime, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/helper" },
    });
    await runtime.catalog.install(tenant, DOORMAN);
    await runtime.routines.pause(localAdmin(tenant), "desk/on-message");
    const say = (sender: string, text: string) =>
      runtime.channels.receive({
        tenant,
        plugin: "channels",
        channel: "webhook",
        ...signed({ channel: "c", sender, thread: sender, text }),
      });
    const recorded = (events: readonly { kind: string; data: unknown }[]) =>
      events
        .filter((entry) => ["governance_checked", "governance_denied", "hook_error"].includes(entry.kind))
        .map((entry) => [entry.kind, (entry.data as { hook: string }).hook]);
    // A chat turn: the sensor's and the session's records join the chat's history.
    await say("loud", "hello");
    await settle(runtime, tenant);
    const thread = await runtime.store.db
      .selectFrom("channel_threads")
      .select("job")
      .where("tenant", "=", tenant)
      .executeTakeFirstOrThrow();
    const chat = await runtime.jobs.events(thread.job, { tenant });
    expect(recorded(chat)).toEqual(
      expect.arrayContaining([
        ["governance_checked", "pre_sensor_event"],
        ["hook_error", "post_sensor_event"],
        ["governance_checked", "pre_session_access"],
        ["hook_error", "post_session_access"],
      ]),
    );
    expect(chat.find((entry) => entry.kind === "hook_error")?.data).toMatchObject({
      plugin: "doorman",
      error: "too loud to hear",
    });
    // A refused event, a replay and a refused session become no job: the audit log keeps theirs.
    await say("u", "a forbidden word");
    const replayed = signed({ channel: "c", sender: "v", thread: "v", text: "once" });
    const send = () =>
      runtime.channels.receive({ tenant, plugin: "channels", channel: "webhook", ...replayed });
    await send();
    await send();
    await say("blocked", "hello");
    await settle(runtime, tenant);
    const entries = await runtime.audit.list(localAdmin(tenant), { action: "hooks.record" });
    const kept = entries
      .map((entry) => ({
        actor: entry.actor,
        outcome: entry.detail.outcome,
        events: recorded(entry.detail.events as { kind: string; data: unknown }[]),
      }))
      .reverse();
    expect(kept).toEqual([
      {
        actor: "channel:channels/webhook",
        outcome: "refused",
        events: [["governance_denied", "pre_sensor_event"]],
      },
      {
        actor: "channel:channels/webhook",
        outcome: "duplicate",
        events: [["governance_checked", "pre_sensor_event"]],
      },
      {
        actor: "channel:channels/webhook",
        outcome: "refused",
        events: [
          ["governance_checked", "pre_sensor_event"],
          ["governance_denied", "pre_session_access"],
        ],
      },
    ]);
    expect(entries.every((entry) => entry.role === null)).toBe(true);
    await out.close();
  });
  it("writes what a message's sensor hooks recorded into each routine job it fires, right after its job_started", async () => {
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "routine-records";
    await tenantWith(runtime, tenant, { webhook: { secret: SECRET, url: `${out.url}/a` } });
    await runtime.catalog.install(tenant, DOORMAN);
    await runtime.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "loud", text: "deployed" }),
    });
    await settle(runtime, tenant);
    const [job] = await runtime.jobs.search({ tenant, agent: "helper" });
    const events = await runtime.jobs.events(job!.id, { tenant });
    expect(events.slice(0, 3).map((entry) => [entry.kind, (entry.data as { hook?: string }).hook])).toEqual([
      ["job_started", undefined],
      ["governance_checked", "pre_sensor_event"],
      ["hook_error", "post_sensor_event"],
    ]);
    expect(await runtime.audit.list(localAdmin(tenant), { action: "hooks.record" })).toEqual([]);
    await out.close();
  });
});

describe("channels' outbox across processes", () => {
  it("delivers an answer the process died before delivering, once a new process drains", async () => {
    const home = await mkdtemp(join(tmpdir(), "oz0-channels-restart-"));
    const out = await receiver(() => ({ status: 200, body: {} }));
    const tenant = "restart";
    const first = await Runtime.open({ home, defaultPlugins: [] });
    await tenantWith(first, tenant, {
      webhook: { secret: SECRET, url: `${out.url}/a`, agent: "desk/helper" },
    });
    await first.routines.pause(localAdmin(tenant), "desk/on-message");
    await first.channels.receive({
      tenant,
      plugin: "channels",
      channel: "webhook",
      ...signed({ channel: "c", sender: "u", thread: "t", text: "hi" }),
    });
    // The turn is posted and answered, then the process dies before the answer is delivered.
    await first.channels.drain(tenant);
    for (const job of await first.jobs.search({ tenant, status: "queued" }))
      await first.jobs.run(job.id, { tenant });
    expect(await states(first, tenant)).toEqual(["answering"]);
    await first.close();
    expect(out.seen).toHaveLength(0);
    const second = await Runtime.open({ home, defaultPlugins: [] });
    await settle(second, tenant);
    expect(out.seen).toHaveLength(1);
    expect(await states(second, tenant)).toEqual(["delivered"]);
    await second.close();
    await out.close();
  });

  const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");
  afterAll(() => disposeFixtures(postgres));
  it.each(postgres)(
    "two nodes on $label never deliver one message twice: each row is claimed under a lease",
    async (fixture) => {
      const options = await fixture.fresh();
      const out = await receiver(() => ({ status: 200, body: {} }));
      // Two processes on one database share its secret key, as OZ0_SECRET_KEY makes them.
      const home = await mkdtemp(join(tmpdir(), "oz0-ch-nodes-"));
      const a = await Runtime.open({
        ...options,
        home,
        defaultPlugins: [],
      });
      const b = await Runtime.open({
        ...options,
        home,
        defaultPlugins: [],
      });
      const tenant = "leases";
      await tenantWith(a, tenant, { webhook: { secret: SECRET, url: `${out.url}/a`, members: {} } });
      await a.routines.pause(localAdmin(tenant), "desk/on-message");
      for (let n = 0; n < 20; n += 1) {
        await a.channels.receive({
          tenant,
          plugin: "channels",
          channel: "webhook",
          ...signed({ channel: "c", sender: "u", text: `approve ap_${n}` }),
        });
      }
      await Promise.all([
        a.channels.drain(tenant),
        b.channels.drain(tenant),
        a.channels.drain(tenant),
        b.channels.drain(tenant),
      ]);
      await settle(a, tenant);
      expect(
        await a.store.db
          .selectFrom("channel_messages")
          .select(["state", "last_error"])
          .where("state", "!=", "delivered")
          .execute(),
      ).toEqual([]);
      expect(out.seen).toHaveLength(20);
      expect(new Set(out.seen.map((entry) => entry.body)).size).toBe(20);
      await a.close();
      await b.close();
      await out.close();
    },
  );
});
