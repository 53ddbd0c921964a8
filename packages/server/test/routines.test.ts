// Routines over HTTP: listed, fired by hand, paused, resumed and their history by key and role;
// a scoped key asking about a routine of an agent outside its scope answered exactly as for one
// that does not exist; and the signed webhook, which takes no key: a bad signature, a stale
// timestamp and a replay are refused, a good one starts the job.
import { join } from "node:path";
import { type Caller, signWebhook } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, OTHER, type TestServer, testServer, untilEnded } from "./helpers.js";

const CLOCKWORK = join(import.meta.dirname, "../../runtime/test/fixtures/routines/clockwork");
const ADMIN: Caller = { tenant: LAB, actor: "cli:test", role: "admin", agents: ["*"] };

let test: TestServer;
let secret: string;
beforeAll(async () => {
  test = await testServer();
  const routines = test.runtime.services.routines;
  await routines.add(ADMIN, { name: "inbound", run: "helpdesk/auto", event: "webhook" });
  await routines.add(ADMIN, { name: "asking", run: "helpdesk/asker", event: "webhook" });
  secret = (await routines.secret(ADMIN, "inbound")).secret;
  await test.runtime.catalog.install(LAB, CLOCKWORK);
});
afterAll(async () => {
  await test.close();
});

async function send(
  path: string,
  key: "admin" | "runner" | "viewer" | "scoped" | undefined,
  method = "GET",
  body?: string,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer by the shape its route documents
): Promise<{ status: number; text: string; json: any }> {
  const response = await test.request(path, {
    key,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, text, json: text === "" ? undefined : JSON.parse(text) };
}

const lab = (path: string) => `/v1/t/${LAB}${path}`;

function signed(body: string, timestamp = Math.floor(Date.now() / 1000), key = secret) {
  return {
    "content-type": "application/json",
    "x-oz0-timestamp": String(timestamp),
    "x-oz0-signature": `sha256=${signWebhook(key, String(timestamp), body)}`,
  };
}

describe("routines by key", () => {
  it("lists the tenant's routines to a viewer", async () => {
    const answer = await send(lab("/routines"), "viewer");
    expect(answer.status).toBe(200);
    expect(answer.json.routines.map((one: { name: string }) => one.name).sort()).toEqual([
      "asking",
      "clockwork/after-summary",
      "clockwork/read-only",
      "inbound",
    ]);
  });

  it("fires a routine by hand for a runner, and shows it in the history", async () => {
    const fired = await send(
      lab("/routines/inbound/fires"),
      "runner",
      "POST",
      JSON.stringify({ input: "by hand" }),
    );
    expect(fired.status).toBe(201);
    expect(fired.json).toMatchObject({ routine: "inbound", cause: "manual", outcome: "started" });
    expect((await untilEnded(test, LAB, fired.json.job)).status).toBe("succeeded");
    const history = await send(lab("/routines/inbound/fires?limit=5"), "viewer");
    expect(history.json.fires[0]).toMatchObject({ id: fired.json.id, job: fired.json.job });
  });

  it("pauses and resumes a routine for an operator, each in the audit log", async () => {
    const paused = await send(lab("/routines/inbound/pause"), "admin", "POST");
    expect(paused.json).toMatchObject({ name: "inbound", paused: true });
    const refused = await send(lab("/routines/inbound/fires"), "runner", "POST");
    expect(refused.json.error.code).toBe("ROUTINE_PAUSED");
    const resumed = await send(lab("/routines/inbound/resume"), "admin", "POST");
    expect(resumed.json).toMatchObject({ paused: false });
    const audit = await send(lab("/audit?action=routines"), "admin");
    const actions = audit.json.entries.map(
      (entry: { action: string; target: string }) => `${entry.action} ${entry.target}`,
    );
    expect(actions).toEqual(expect.arrayContaining(["routines.pause inbound", "routines.resume inbound"]));
  });

  it("refuses a runner pausing and a viewer firing with 403 before the body is read", async () => {
    expect((await send(lab("/routines/inbound/pause"), "runner", "POST")).status).toBe(403);
    const viewer = await send(lab("/routines/inbound/fires"), "viewer", "POST", "not json");
    expect(viewer.status).toBe(403);
    expect(viewer.json.error).toMatchObject({ code: "FORBIDDEN", data: { needs: "runner" } });
  });

  it("answers a scoped key asking about an out-of-scope agent's routine exactly as for a nonexistent one", async () => {
    // helpdesk/auto is outside the scoped key's agents (helpdesk/asker only).
    const asks = [
      ["GET", "/fires"],
      ["POST", "/fires"],
      ["POST", "/pause"],
    ] as const;
    for (const [method, suffix] of asks) {
      const ghost = await send(lab(`/routines/ghost${suffix}`), "scoped", method);
      await test.runtime.services.routines.add(ADMIN, {
        name: "ghost",
        run: "helpdesk/auto",
        event: "webhook",
      });
      const hidden = await send(lab(`/routines/ghost${suffix}`), "scoped", method);
      await test.runtime.services.routines.remove(ADMIN, "ghost");
      expect(ghost.status).toBe(
        method === "GET" ? 404 : method === "POST" && suffix === "/pause" ? 403 : 404,
      );
      expect(hidden.status).toBe(ghost.status);
      expect(hidden.json).toEqual(ghost.json);
    }
    const listed = await send(lab("/routines"), "scoped");
    expect(listed.json.routines.map((one: { name: string }) => one.name)).toEqual(["asking"]);
  });

  it("names a plugin's routine by two path segments, and hides one out of scope as a missing one", async () => {
    expect((await send(lab("/routines/clockwork/read-only/fires"), "viewer")).status).toBe(200);
    const hidden = await send(lab("/routines/clockwork/read-only/fires"), "scoped");
    const missing = await send(lab("/routines/clockwork/nothing/fires"), "scoped");
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.json).replaceAll("read-only", "X")).toBe(
      JSON.stringify(missing.json).replaceAll("nothing", "X"),
    );
  });
});

describe("the signed webhook", () => {
  it("starts the job with a good signature and no key, the body as its input", async () => {
    // helpdesk/auto takes text: a body that is not JSON is its input as it is.
    const body = "ticket 42 is on fire";
    const answer = await send(lab("/routines/inbound/fire"), undefined, "POST", body, signed(body));
    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({ routine: "inbound", cause: "webhook", outcome: "started" });
    const job = await untilEnded(test, LAB, answer.json.job);
    expect(job.status).toBe("succeeded");
    const view = await test.runtime.services.jobs.get(ADMIN, answer.json.job);
    expect(view.input).toBe(body);
  });

  it("refuses a bad signature with 401 UNAUTHENTICATED, reason signature", async () => {
    const body = JSON.stringify({ ticket: 1 });
    const headers = signed(body, undefined, "not-the-secret");
    const answer = await send(lab("/routines/inbound/fire"), undefined, "POST", body, headers);
    expect(answer.status).toBe(401);
    expect(answer.json.error).toMatchObject({ code: "UNAUTHENTICATED", data: { reason: "signature" } });
    // A body changed after signing is as bad.
    const tampered = await send(lab("/routines/inbound/fire"), undefined, "POST", `${body} `, signed(body));
    expect(tampered.json.error.data.reason).toBe("signature");
  });

  it("refuses a stale timestamp", async () => {
    const body = "{}";
    const headers = signed(body, Math.floor(Date.now() / 1000) - 3600);
    const answer = await send(lab("/routines/inbound/fire"), undefined, "POST", body, headers);
    expect(answer.status).toBe(401);
    expect(answer.json.error.data.reason).toBe("stale");
  });

  it("refuses a replay of a request it took", async () => {
    const body = JSON.stringify({ ticket: 7 });
    const headers = signed(body);
    expect((await send(lab("/routines/inbound/fire"), undefined, "POST", body, headers)).status).toBe(202);
    const again = await send(lab("/routines/inbound/fire"), undefined, "POST", body, headers);
    expect(again.status).toBe(401);
    expect(again.json.error.data.reason).toBe("replay");
  });

  it("refuses a request without the headers, and answers a routine without a secret, a missing one or another tenant's as a bad signature", async () => {
    const none = await send(lab("/routines/inbound/fire"), undefined, "POST", "{}");
    expect(none.status).toBe(401);
    const body = "{}";
    const bad = (
      await send(lab("/routines/inbound/fire"), undefined, "POST", body, signed(body, undefined, "x"))
    ).json;
    for (const path of [
      lab("/routines/asking/fire"),
      lab("/routines/nothing/fire"),
      `/v1/t/${OTHER}/routines/inbound/fire`,
    ]) {
      const answer = await send(path, undefined, "POST", body, signed(body));
      expect(answer.status).toBe(401);
      expect(answer.json.error.data).toEqual(bad.error.data);
    }
  });

  it("fires a plugin's routine at /routines/{plugin}/{name}/fire", async () => {
    const key = (await test.runtime.services.routines.secret(ADMIN, "clockwork/read-only")).secret;
    const body = "sweep now";
    const path = lab("/routines/clockwork/read-only/fire");
    const answer = await send(path, undefined, "POST", body, signed(body, undefined, key));
    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({
      routine: "clockwork/read-only",
      cause: "webhook",
      outcome: "started",
    });
  });

  it("ignores a bearer key: the signature alone is the credential", async () => {
    const body = "{}";
    const answer = await send(
      lab("/routines/inbound/fire"),
      "admin",
      "POST",
      body,
      signed(body, undefined, "x"),
    );
    expect(answer.status).toBe(401);
  });
});
