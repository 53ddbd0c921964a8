// Channels over HTTP: the inbound endpoint takes no key, verifies the request with the channel's
// own secret (an unsigned or badly signed request is refused 401 before anything is stored, as
// one to a channel that does not exist), answers Slack's url_verification with its challenge,
// accepts a signed event; and the channel list answers a viewer's key.
import { createHmac } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer } from "./helpers.js";

const CHANNELS = fileURLToPath(new URL("../../../plugins/channels", import.meta.url));
const ADMIN: Caller = { tenant: LAB, actor: "cli:test", role: "admin", agents: ["*"] };
const SIGNING = "slack-signing-secret";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
  await test.runtime.catalog.install(LAB, CHANNELS);
  await test.runtime.services.pluginConfig.set(ADMIN, "channels", {
    slack: {
      signingSecret: SIGNING,
      botToken: "xoxb-1",
      apiUrl: "http://127.0.0.1:9",
      agent: "helpdesk/auto",
    },
  });
});
afterAll(async () => {
  await test.close();
});

function slack(body: unknown, at = Math.floor(Date.now() / 1000)) {
  const text = JSON.stringify(body);
  return {
    body: text,
    headers: {
      "content-type": "application/json",
      "x-slack-request-timestamp": String(at),
      "x-slack-signature": `v0=${createHmac("sha256", SIGNING).update(`v0:${at}:${text}`).digest("hex")}`,
    },
  };
}

async function post(path: string, request: { body: string; headers: Record<string, string> }) {
  const response = await test.request(path, { method: "POST", ...request });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer by the shape its route documents
  return { status: response.status, json: (await response.json()) as any };
}

describe("a channel's inbound endpoint", () => {
  const path = `/v1/t/${LAB}/channels/channels/slack`;

  it("answers url_verification with its challenge, without any API key", async () => {
    const answer = await post(path, slack({ type: "url_verification", challenge: "c-42" }));
    expect(answer).toEqual({ status: 200, json: { challenge: "c-42" } });
  });

  it("refuses an unsigned request, a bad signature and an unknown channel with 401, alike", async () => {
    const good = slack({ type: "url_verification", challenge: "x" });
    const unsigned = await post(path, { body: good.body, headers: { "content-type": "application/json" } });
    const bad = await post(path, {
      body: good.body,
      headers: { ...good.headers, "x-slack-signature": "v0=00" },
    });
    const unknown = await post(`/v1/t/${LAB}/channels/channels/nosuch`, good);
    for (const answer of [unsigned, bad, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe("UNAUTHENTICATED");
    }
    expect(unsigned.json.error.data.reason).toBe("signature");
    expect(unknown.json.error.data.reason).toBe("unverified");
    const stored = await test.runtime.store.db.selectFrom("channel_messages").select("id").execute();
    expect(stored).toEqual([]);
  });

  it("accepts a signed event and stores it once", async () => {
    const event = slack({
      type: "event_callback",
      event_id: "Ev9",
      event: { type: "message", channel: "C1", user: "U1", text: "hello", ts: "1.1" },
    });
    expect((await post(path, event)).json).toMatchObject({ outcome: "accepted" });
    expect((await post(path, event)).json).toMatchObject({ outcome: "duplicate" });
  });

  it("takes Slack's interactivity requests (form-encoded payload=, signed like events), and refuses a forged one with 401", async () => {
    const payload = {
      type: "block_actions",
      user: { id: "U1" },
      channel: { id: "C1" },
      message: { ts: "2.1", blocks: [] },
      actions: [{ action_id: "oz0.approve", value: "apr-unknown", type: "button" }],
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const at = Math.floor(Date.now() / 1000);
    const signature = createHmac("sha256", SIGNING).update(`v0:${at}:${body}`).digest("hex");
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(at),
      "x-slack-signature": `v0=${signature}`,
    };
    expect(await post(path, { body, headers })).toMatchObject({ status: 200, json: { outcome: "accepted" } });
    const forged = { ...headers, "x-slack-signature": `v0=${"0".repeat(64)}` };
    expect(await post(path, { body: `${body}&x=1`, headers: forged })).toMatchObject({
      status: 401,
      json: { error: { code: "UNAUTHENTICATED" } },
    });
  });

  it("lists the tenant's channels to a viewer's key", async () => {
    const response = await test.request(`/v1/t/${LAB}/channels`, { key: "viewer" });
    expect(response.status).toBe(200);
    const { channels } = (await response.json()) as { channels: { channel: string; configured: boolean }[] };
    expect(channels.map((entry) => [entry.channel, entry.configured])).toEqual([
      ["channels/webhook", false],
      ["channels/slack", true],
    ]);
  });
});
