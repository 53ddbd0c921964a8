// Models and providers, plugin config, members and keys, the audit log and chat over HTTP: each
// route's answer and refusals, the role a route needs checked before its body is read, secrets
// that go in and never come out, and every change landing in the audit log.
import { join } from "node:path";
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOf, LAB, type TestServer, testServer } from "./helpers.js";

const KEYRING = join(import.meta.dirname, "../../runtime/test/fixtures/secrets/keyring");
const INSTALLATION_ADMIN: Caller = { tenant: "default", actor: "cli:test", role: "admin", agents: ["*"] };

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
  await test.runtime.catalog.install(LAB, KEYRING);
  await test.runtime.services.identity.addUser(INSTALLATION_ADMIN, "alice", "a-long-enough-password");
});
afterAll(async () => {
  await test.close();
});

async function send(
  path: string,
  key: "admin" | "runner" | "viewer" | "scoped",
  method = "GET",
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer by the shape its route documents
): Promise<{ status: number; text: string; json: any }> {
  const response = await test.request(`/v1/t/${LAB}${path}`, {
    key,
    method,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: text === "" ? undefined : JSON.parse(text) };
}

async function audited(action: string): Promise<{ action: string; actor: string; target: string }[]> {
  const answer = await send(`/audit?action=${encodeURIComponent(action)}`, "admin");
  expect(answer.status).toBe(200);
  return answer.json.entries;
}

describe("models and providers", () => {
  it("sets, lists and removes a model alias, each change in the audit log", async () => {
    const set = await send("/models/aliases/fast", "admin", "PUT", { target: "test" });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ alias: "fast", target: "test" });
    const list = await send("/models/aliases", "viewer");
    expect(list.json.aliases.map((one: { alias: string }) => one.alias)).toContain("fast");
    expect((await send("/models/aliases/fast", "admin", "DELETE")).status).toBe(200);
    const actions = (await audited("models")).map((entry) => `${entry.action} ${entry.target}`);
    expect(actions).toEqual(expect.arrayContaining(["models.setAlias fast", "models.removeAlias fast"]));
  });

  it("never echoes a provider's key: not in the answer that sets it, nor in the list", async () => {
    const secret = "sk-test-never-shown-0123456789abcdef";
    const set = await send("/providers/openai", "admin", "PUT", { api_key: secret });
    expect(set.status).toBe(200);
    expect(set.json.key.state).toBe("stored");
    const list = await send("/providers", "viewer");
    expect(list.status).toBe(200);
    for (const text of [set.text, list.text, JSON.stringify(await audited("models.setProvider"))]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, 20));
    }
  });

  it("refuses a runner setting a model with 403 before the body is read", async () => {
    const answer = await send("/models/aliases/fast", "runner", "PUT", "this is not JSON");
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({
      code: "FORBIDDEN",
      data: { role: "runner", needs: "operator" },
    });
    expect((await send("/providers/openai", "runner", "PUT", "{")).status).toBe(403);
  });

  it("answers a body that does not match with 422 INVALID_INPUT", async () => {
    const answer = await send("/models/aliases/fast", "admin", "PUT", { target: 7 });
    expect(answer.status).toBe(422);
    expect(answer.json.error.code).toBe("INVALID_INPUT");
  });
});

describe("plugin config", () => {
  it("shows the config with its secrets masked, and a masked value sent back keeps the secret", async () => {
    const token = "tok-kept-secret-0123456789";
    const set = await send("/plugins/keyring/config", "admin", "PUT", {
      config: { endpoint: "https://vault.example", token, accounts: [] },
    });
    expect(set.status).toBe(200);
    expect(set.json.config.token).toBe("[hidden]");
    const shown = await send("/plugins/keyring/config", "viewer");
    expect(shown.json.config.token).toBe("[hidden]");
    expect(shown.text).not.toContain(token);

    // Read, edit one field, set it all back: the token stays what it was.
    const edited = { ...shown.json.config, endpoint: "https://vault2.example" };
    expect((await send("/plugins/keyring/config", "admin", "PUT", { config: edited })).status).toBe(200);
    const effective = await test.runtime.catalog.configs.effective(LAB, "keyring");
    expect(effective).toMatchObject({ endpoint: "https://vault2.example", token });

    // A new value does replace it.
    await send("/plugins/keyring/config", "admin", "PUT", {
      config: { ...edited, token: "tok-new-0123456789" },
    });
    expect((await test.runtime.catalog.configs.effective(LAB, "keyring")).token).toBe("tok-new-0123456789");
    expect((await audited("pluginConfig.set")).length).toBeGreaterThanOrEqual(3);
  });

  it("refuses a runner setting plugin config with 403 before the body is read", async () => {
    const answer = await send("/plugins/keyring/config", "runner", "PUT", "not json");
    expect(answer.status).toBe(403);
  });

  it("answers a plugin that is not installed with 404", async () => {
    expect((await send("/plugins/nothing-here/config", "viewer")).status).toBe(404);
  });
});

describe("members", () => {
  it("adds a member, lists them, changes the role, and removes them, each change audited", async () => {
    const added = await send("/members/alice", "admin", "PUT", { role: "runner" });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({
      member: { user: "alice", role: "runner", agents: ["*"] },
      previous: null,
    });
    const changed = await send("/members/alice", "admin", "PUT", {
      role: "viewer",
      agents: ["helpdesk/triage"],
    });
    expect(changed.json).toMatchObject({
      member: { role: "viewer", agents: ["helpdesk/triage"] },
      previous: { role: "runner" },
    });
    const list = await send("/members", "admin");
    expect(list.json.members.map((one: { user: string }) => one.user)).toEqual(["alice"]);
    expect((await send("/members/alice", "admin", "DELETE")).status).toBe(200);
    expect((await send("/members", "admin")).json.members).toEqual([]);
    const actions = (await audited("member")).map((entry) => entry.action);
    expect(actions.filter((action) => action.startsWith("member.")).length).toBeGreaterThanOrEqual(3);
  });

  it("refuses a runner adding a member with 403 before the body is read", async () => {
    const answer = await send("/members/alice", "runner", "PUT", "not json");
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({ code: "FORBIDDEN", data: { needs: "admin" } });
  });

  it("answers a user who does not exist with 404", async () => {
    expect((await send("/members/nobody", "admin", "PUT", { role: "viewer" })).status).toBe(404);
  });
});

describe("API keys", () => {
  it("returns a new key once; the list never shows it; a revoked key is refused", async () => {
    const made = await send("/keys", "admin", "POST", { name: "ci", role: "runner" });
    expect(made.status).toBe(201);
    const { id, key } = made.json as { id: string; key: string };
    expect(key).toContain(id);
    expect(made.json.view).toMatchObject({ id, name: "ci", role: "runner", status: "active" });
    expect((await test.runtime.identity.authenticateKey(key)).role).toBe("runner");

    const list = await send("/keys", "admin");
    expect(list.json.keys.map((one: { id: string }) => one.id)).toContain(id);
    // oz0k_<id>_<secret>: the secret may hold "_" itself, so it is what follows the ID.
    const secretPart = key.slice(`oz0k_${id}_`.length);
    expect(secretPart).toHaveLength(43);
    expect(list.text).not.toContain(secretPart);

    const revoked = await send(`/keys/${id}/revoke`, "admin", "POST");
    expect(revoked.json).toMatchObject({ id, status: "revoked" });
    await expect(test.runtime.identity.authenticateKey(key)).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });

    const entries = await audited("key");
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["key.create", "key.revoke"]),
    );
    expect(JSON.stringify(entries)).not.toContain(secretPart);
  });

  it("refuses a runner making a key with 403 before the body is read", async () => {
    expect((await send("/keys", "runner", "POST", "not json")).status).toBe(403);
    expect((await send("/keys", "viewer")).status).toBe(403);
  });

  it("answers revoking a key that does not exist with 404", async () => {
    expect((await send("/keys/nope/revoke", "admin", "POST")).status).toBe(404);
  });
});

describe("the audit log", () => {
  it("filters by actor, action and time, newest first", async () => {
    await send("/models/aliases/audited", "admin", "PUT", { target: "test" });
    const all = (await send("/audit", "admin")).json.entries as { seq: number; at: number; actor: string }[];
    expect(all.length).toBeGreaterThan(0);
    expect(all.map((entry) => entry.seq)).toEqual([...all.map((entry) => entry.seq)].sort((a, b) => b - a));
    const byActor = (await send(`/audit?actor=${actorOf("admin")}&limit=2`, "admin")).json.entries;
    expect(byActor.length).toBe(2);
    expect(byActor.every((entry: { actor: string }) => entry.actor === actorOf("admin"))).toBe(true);
    const later = (await send(`/audit?since=${all[0]!.at + 60_000}`, "admin")).json.entries;
    expect(later).toEqual([]);
    expect((await send("/audit?limit=0", "admin")).status).toBe(422);
  });

  it("is an admin's to read: a runner gets 403", async () => {
    expect((await send("/audit", "runner")).status).toBe(403);
  });
});

describe("chat", () => {
  it("opens a chat job, sends a message to it, and ends it", async () => {
    const opened = await send("/chats", "runner", "POST", { agent: "helpdesk/auto", text: "hello" });
    expect(opened.status).toBe(201);
    expect(opened.json.job).toMatchObject({ mode: "chat", agent: "helpdesk/auto" });
    const id = opened.json.job.id as string;
    const said = await send(`/chats/${id}/messages`, "runner", "POST", { text: "and again" });
    expect(said.status).toBe(200);
    expect(said.json.job.id).toBe(id);
    const ended = await send(`/chats/${id}/end`, "runner", "POST");
    expect(ended.status).toBe(200);
    expect(ended.json).toMatchObject({ id, status: "succeeded" });
  });

  it("refuses a viewer opening a chat with 403 before the body is read", async () => {
    expect((await send("/chats", "viewer", "POST", "not json")).status).toBe(403);
  });

  it("answers a scoped key chatting with an agent outside its scope exactly as a missing one", async () => {
    const hidden = await send("/chats", "scoped", "POST", { agent: "helpdesk/triage", text: "hi" });
    const missing = await send("/chats", "scoped", "POST", { agent: "helpdesk/nobody", text: "hi" });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.json.error.message.replace("triage", "X")).toBe(
      missing.json.error.message.replace("nobody", "X"),
    );
  });
});
