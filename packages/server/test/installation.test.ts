// The installation's tenants and users over HTTP, and the secrets a client sends: only an admin
// of tenant default with every agent manages tenants and users; a password or a secret's value
// goes in one request's body and comes back in no answer, list or audit entry.
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer } from "./helpers.js";

const PASSWORD = "correct horse battery staple";
const SECRET = "sk-remote-0123456789abcdef";

let test: TestServer;
/** Keys of tenant default: an admin of every agent, an admin of one agent, an operator. */
const installer: Record<"admin" | "scopedAdmin" | "operator", string> = {
  admin: "",
  scopedAdmin: "",
  operator: "",
};

beforeAll(async () => {
  test = await testServer({ worker: false });
  const root: Caller = { tenant: "default", actor: "user:root", role: "admin", agents: ["*"] };
  const make = async (name: string, role: "admin" | "operator", agents: string[]) =>
    (await test.runtime.identity.createKey(root, { name, role, agents })).key;
  installer.admin = await make("installer", "admin", ["*"]);
  installer.scopedAdmin = await make("scoped-installer", "admin", ["std/echo"]);
  installer.operator = await make("operator", "operator", ["*"]);
});
afterAll(() => test.close());

function asDefault(key: keyof typeof installer, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${installer[key]}`);
  if (typeof init.body === "string") headers.set("content-type", "application/json");
  return fetch(`${test.url}/v1/t/default${path}`, { ...init, headers });
}

describe("tenants and users through the server", () => {
  it("lets an admin of tenant default with every agent create and list tenants", async () => {
    const made = await asDefault("admin", "/tenants", {
      method: "POST",
      body: JSON.stringify({ name: "research" }),
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ name: "research" });
    const again = await asDefault("admin", "/tenants", {
      method: "POST",
      body: JSON.stringify({ name: "research" }),
    });
    expect(again.status).toBe(409);
    const listed = (await (await asDefault("admin", "/tenants")).json()) as { tenants: { name: string }[] };
    expect(listed.tenants.map((tenant) => tenant.name)).toEqual(
      expect.arrayContaining(["default", "research", LAB]),
    );
  });

  it("refuses tenants and users to an admin of tenant default limited to some agents, an operator, and another tenant's admin", async () => {
    const scoped = await asDefault("scopedAdmin", "/tenants", {
      method: "POST",
      body: JSON.stringify({ name: "sneaky" }),
    });
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as { error: { message: string } }).error.message).toContain(
      "only the admins of tenant default with every agent",
    );
    expect((await asDefault("scopedAdmin", "/users")).status).toBe(403);
    expect((await asDefault("operator", "/tenants")).status).toBe(403);
    const other = await test.request(`/v1/t/${LAB}/tenants`, {
      method: "POST",
      key: "admin",
      body: JSON.stringify({ name: "sneaky" }),
    });
    expect(other.status).toBe(403);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(
      "the admins of tenant default manage them",
    );
    const tenants = await test.runtime.identity.listTenants({
      tenant: "default",
      actor: "user:root",
      role: "admin",
      agents: ["*"],
    });
    expect(tenants.map((tenant) => tenant.name)).not.toContain("sneaky");
  });

  it("adds a user whose password is in no answer, list or audit entry, and removes the user", async () => {
    const added = await asDefault("admin", "/users", {
      method: "POST",
      body: JSON.stringify({ name: "alice@example.com", password: PASSWORD }),
    });
    expect(added.status).toBe(201);
    const addedText = await added.text();
    expect(JSON.parse(addedText)).toMatchObject({ name: "alice@example.com", tenants: [] });
    const listed = await (await asDefault("admin", "/users")).text();
    const audit = await (await asDefault("admin", "/audit")).text();
    expect(audit).toContain("user:alice@example.com");
    for (const text of [addedText, listed, audit]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain("argon2");
    }
    const short = await asDefault("admin", "/users", {
      method: "POST",
      body: JSON.stringify({ name: "bob", password: "short" }),
    });
    expect(short.status).toBe(422);
    expect(await short.text()).not.toContain('"short"');
    const removed = await asDefault("admin", "/users/alice@example.com", { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect((await asDefault("admin", "/users/alice@example.com", { method: "DELETE" })).status).toBe(404);
  });
});

describe("a tenant made through the server for a user", () => {
  it("makes the user its admin of every agent, who signs in to it", async () => {
    const user = await asDefault("admin", "/users", {
      method: "POST",
      body: JSON.stringify({ name: "grace", password: PASSWORD }),
    });
    expect(user.status).toBe(201);
    const made = await asDefault("admin", "/tenants", {
      method: "POST",
      body: JSON.stringify({ name: "team", admin: "grace" }),
    });
    expect(made.status).toBe(201);
    const caller = await test.runtime.identity.authenticatePassword("grace", PASSWORD, "team");
    expect(caller).toMatchObject({ tenant: "team", role: "admin", agents: ["*"] });
    const missing = await asDefault("admin", "/tenants", {
      method: "POST",
      body: JSON.stringify({ name: "empty", admin: "nobody" }),
    });
    expect(missing.status).toBe(404);
    const listed = (await (await asDefault("admin", "/tenants")).json()) as { tenants: { name: string }[] };
    expect(listed.tenants.map((tenant) => tenant.name)).not.toContain("empty");
  });
});

describe("secrets sent to the server", () => {
  it("keeps a remote agent's secret: set by an operator, listed by name, its value in no answer or audit entry", async () => {
    const set = await test.request(`/v1/t/${LAB}/remote-secrets/partner-token`, {
      method: "PUT",
      key: "admin",
      body: JSON.stringify({ value: SECRET }),
    });
    expect(set.status).toBe(200);
    const setText = await set.text();
    expect(JSON.parse(setText)).toEqual({ name: "partner-token" });
    const listed = await (await test.request(`/v1/t/${LAB}/remote-secrets`, { key: "viewer" })).text();
    expect(JSON.parse(listed)).toEqual({ names: ["partner-token"] });
    const audit = await (await test.request(`/v1/t/${LAB}/audit`, { key: "admin" })).text();
    expect(audit).toContain("partner-token");
    for (const text of [setText, listed, audit]) expect(text).not.toContain(SECRET);
    const runner = await test.request(`/v1/t/${LAB}/remote-secrets/partner-token`, {
      method: "PUT",
      key: "runner",
      body: JSON.stringify({ value: SECRET }),
    });
    expect(runner.status).toBe(403);
    expect(await runner.text()).not.toContain(SECRET);
  });

  it("refuses removing an MCP secret by its kind without its name, rather than removing nothing", async () => {
    const response = await test.request(`/v1/t/${LAB}/mcp/secrets?tool=helpdesk/x&kind=env`, {
      method: "DELETE",
      key: "admin",
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "give both the kind and the name",
    );
    const viewer = await test.request(`/v1/t/${LAB}/mcp/secrets?tool=helpdesk/x&kind=env`, {
      method: "DELETE",
      key: "viewer",
    });
    expect(viewer.status).toBe(403);
  });
});
