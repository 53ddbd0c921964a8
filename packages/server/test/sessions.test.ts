// Console sessions: a member's password (or an API key) signs in to an HttpOnly, SameSite=Strict
// session cookie; the console's API calls ride on it, every change carries the session's CSRF
// token, the caller is the membership as it is now, and signing out ends it.
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, LAB, type TestServer, testServer } from "./helpers.js";

const PASSWORD = "correct horse battery staple";
const ROOT: Caller = { tenant: "default", actor: "user:root", role: "admin", agents: ["*"] };
const LAB_ADMIN: Caller = { tenant: LAB, actor: "user:root", role: "admin", agents: ["*"] };

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
  await test.runtime.identity.addUser(ROOT, "alice", PASSWORD);
  await test.runtime.identity.addMember(LAB_ADMIN, {
    user: "alice",
    role: "runner",
    agents: ["helpdesk/asker"],
  });
});
afterAll(async () => {
  await test.close();
});

async function signIn(body: unknown): Promise<{ response: Response; cookie: string; csrf: string }> {
  const response = await test.request("/v1/sessions", { method: "POST", body: JSON.stringify(body) });
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const csrf = response.status === 201 ? ((await response.clone().json()) as { csrf: string }).csrf : "";
  return { response, cookie, csrf };
}

describe("console sessions", () => {
  it("a member's password signs in to an HttpOnly, SameSite=Strict cookie that authenticates API calls", async () => {
    const { response, cookie, csrf } = await signIn({ tenant: LAB, user: "alice", password: PASSWORD });
    expect(response.status).toBe(201);
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^oz0_session=oz0s_[0-9a-f]{16}_/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    // Plain HTTP here: Secure only over TLS, where the browser would otherwise drop it.
    expect(setCookie).not.toContain("Secure");
    expect(await response.json()).toMatchObject({ tenant: LAB, actor: "user:alice", role: "runner" });
    const me = await test.request(`/v1/t/${LAB}/me`, { headers: { cookie } });
    expect(await me.json()).toEqual({
      tenant: LAB,
      actor: "user:alice",
      role: "runner",
      agents: ["helpdesk/asker"],
      csrf,
    });
    const jobs = await test.request(`/v1/t/${LAB}/jobs`, { headers: { cookie } });
    expect(jobs.status).toBe(200);
  });

  it("a change made with the session cookie needs its CSRF token", async () => {
    const { cookie, csrf } = await signIn({ tenant: LAB, user: "alice", password: PASSWORD });
    const start = (headers: Record<string, string>) =>
      test.request(`/v1/t/${LAB}/jobs`, {
        method: "POST",
        headers: { cookie, ...headers },
        body: JSON.stringify({ agent: "helpdesk/asker", input: "ticket 7" }),
      });
    const without = await start({});
    expect(without.status).toBe(403);
    expect(((await without.json()) as { error: { message: string } }).error.message).toContain("CSRF token");
    expect((await start({ "x-csrf-token": "not-the-token" })).status).toBe(403);
    expect((await start({ "x-csrf-token": csrf })).status).toBe(201);
  });

  it("a session answers for the membership as it is now: out of scope agents stay missing, a removed member is signed out", async () => {
    await test.runtime.identity.addUser(ROOT, "bob", PASSWORD);
    await test.runtime.identity.addMember(LAB_ADMIN, { user: "bob", role: "viewer" });
    const { cookie } = await signIn({ tenant: LAB, user: "bob", password: PASSWORD });
    expect((await test.request(`/v1/t/${LAB}/me`, { headers: { cookie } })).status).toBe(200);
    await test.runtime.identity.removeMember(LAB_ADMIN, "bob");
    const after = await test.request(`/v1/t/${LAB}/me`, { headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it("a wrong password, an unknown user and a forged cookie are refused alike", async () => {
    for (const body of [
      { tenant: LAB, user: "alice", password: "not the password at all" },
      { tenant: LAB, user: "nobody", password: PASSWORD },
      { tenant: "elsewhere", user: "alice", password: PASSWORD },
    ]) {
      const { response } = await signIn(body);
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    const { cookie } = await signIn({ tenant: LAB, user: "alice", password: PASSWORD });
    const forged = `${cookie.slice(0, -4)}abcd`;
    expect((await test.request(`/v1/t/${LAB}/me`, { headers: { cookie: forged } })).status).toBe(401);
  });

  it("an API key signs in to a session of that key, and signing out ends the session", async () => {
    const { response, cookie, csrf } = await signIn({ key: KEYS.viewer });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ tenant: LAB, role: "viewer" });
    const out = await test.request("/v1/sessions", {
      method: "DELETE",
      headers: { cookie, "x-csrf-token": csrf },
    });
    expect(out.status).toBe(204);
    expect((await test.request(`/v1/t/${LAB}/me`, { headers: { cookie } })).status).toBe(401);
  });

  it("clears away the sessions that ended or expired at the next sign-in, and keeps the live ones", async () => {
    const live = await signIn({ key: KEYS.viewer });
    const ended = await signIn({ key: KEYS.viewer });
    await test.request("/v1/sessions", {
      method: "DELETE",
      headers: { cookie: ended.cookie, "x-csrf-token": ended.csrf },
    });
    const expired = await signIn({ key: KEYS.viewer });
    const store = test.runtime.store;
    const idOf = (cookie: string) => decodeURIComponent(cookie.split("=")[1] ?? "").split("_")[1] ?? "";
    await store.db
      .updateTable("sessions")
      .set({ expires_at: (await store.now()) - 1 })
      .where("id", "=", idOf(expired.cookie))
      .execute();
    await signIn({ key: KEYS.viewer });
    const ids = (await store.db.selectFrom("sessions").select("id").execute()).map((row) => row.id);
    expect(ids).toContain(idOf(live.cookie));
    expect(ids).not.toContain(idOf(ended.cookie));
    expect(ids).not.toContain(idOf(expired.cookie));
    expect((await test.request(`/v1/t/${LAB}/me`, { headers: { cookie: live.cookie } })).status).toBe(200);
  });

  it("a sign-in from another site is refused before the password is read", async () => {
    const response = await test.request("/v1/sessions", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      body: JSON.stringify({ tenant: LAB, user: "alice", password: PASSWORD }),
    });
    expect(response.status).toBe(403);
  });

  it("a key's caller has no CSRF token, and keys need none", async () => {
    const me = await test.request(`/v1/t/${LAB}/me`, { key: "runner" });
    expect(await me.json()).toMatchObject({ role: "runner", csrf: null });
  });

  it("marks the cookie Secure on every answer with secureCookies, for a server behind a TLS proxy", async () => {
    // Last: a second test server makes keys of its own (helpers' KEYS).
    const behindProxy = await testServer({ secureCookies: true });
    try {
      const response = await behindProxy.request("/v1/sessions", {
        method: "POST",
        body: JSON.stringify({ key: KEYS.viewer }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get("set-cookie")).toContain("Secure");
    } finally {
      await behindProxy.close();
    }
  });
});
