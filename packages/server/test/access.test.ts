// Who may do what over HTTP: 401 without accepted credentials, 403 for a role that does not
// allow the route (before the request is read), another tenant answered exactly as one that
// does not exist, an agent or job out of a key's scope exactly as a missing one, and the
// request-level guards: Origin, body size, CORS, security headers and the error shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, OTHER, type TestServer, testServer, untilEnded } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer({ bodyLimit: 4096 });
});
afterAll(async () => {
  await test.close();
});

interface ErrorBody {
  error: { code: string; message: string; status: number; data?: Record<string, unknown>; stack?: string };
}

async function errorOf(response: Response): Promise<ErrorBody["error"]> {
  return ((await response.json()) as ErrorBody).error;
}

describe("authentication", () => {
  it("answers a request without credentials with 401 UNAUTHENTICATED", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`);
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
      data: { scheme: "Bearer" },
    });
  });

  it("answers an unknown key with 401, in the same words whatever key was sent", async () => {
    const one = await test.request(`/v1/t/${LAB}/jobs`, {
      headers: { authorization: "Bearer nope-000000000000000" },
    });
    const two = await test.request(`/v1/t/${LAB}/jobs`, {
      headers: { authorization: "Bearer other-11111111111111" },
    });
    expect(one.status).toBe(401);
    expect(await errorOf(one)).toEqual(await errorOf(two));
  });

  it("answers an Authorization header that is not Bearer with 401", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(response.status).toBe(401);
  });

  it("checks credentials before the body: a malformed StartJob without a key is 401, not 422", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
  });
});

describe("roles", () => {
  it("refuses StartJob to a viewer with 403 FORBIDDEN before reading the request", async () => {
    const before = (await test.runtime.jobs.search({ tenant: LAB, limit: 1000 })).length;
    const response = await test.request(`/v1/t/${LAB}/jobs`, { method: "POST", key: "viewer", body: "{}" });
    expect(response.status).toBe(403);
    const error = await errorOf(response);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toContain("that needs the runner role");
    expect((await test.runtime.jobs.search({ tenant: LAB, limit: 1000 })).length).toBe(before);
  });

  it("lets a viewer read jobs", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, { key: "viewer" });
    expect(response.status).toBe(200);
  });
});

describe("tenants", () => {
  it("answers a caller asking about another tenant exactly as about a tenant that does not exist", async () => {
    for (const path of ["/jobs", "/jobs/triage-x", "/jobs/triage-x/events"]) {
      const existing = await test.request(`/v1/t/${OTHER}${path}`, { key: "admin" });
      const missing = await test.request(`/v1/t/${OTHER}${path}`.replace(OTHER, "nosuch"), { key: "admin" });
      expect(existing.status).toBe(404);
      expect(missing.status).toBe(404);
      const [a, b] = [await errorOf(existing), await errorOf(missing)];
      expect(a.code).toBe("NOT_FOUND");
      expect(a.message.replace(OTHER, "T")).toBe(b.message.replace("nosuch", "T"));
    }
  });

  it("does not let a caller of one tenant start or read jobs in another", async () => {
    const started = await test.request(`/v1/t/${OTHER}/jobs`, {
      method: "POST",
      key: "admin",
      body: JSON.stringify({ agent: "support-triage/triage", input: "x" }),
    });
    expect(started.status).toBe(404);
    expect(await test.runtime.jobs.search({ tenant: OTHER })).toEqual([]);
    const job = (await (
      await test.request(`/v1/t/${LAB}/jobs`, {
        method: "POST",
        key: "admin",
        body: JSON.stringify({ agent: "helpdesk/triage", input: "mine" }),
      })
    ).json()) as { id: string };
    const seen = await test.request(`/v1/t/${OTHER}/jobs/${job.id}`, { key: "outsider" });
    expect(seen.status).toBe(404);
    const viaOwnTenant = await test.request(`/v1/t/${LAB}/jobs/${job.id}`, { key: "outsider" });
    expect(viaOwnTenant.status).toBe(404);
  });
});

describe("agent scopes", () => {
  it("answers StartJob of an agent outside the key's scope exactly as one that does not exist", async () => {
    const hidden = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "scoped",
      body: JSON.stringify({ agent: "helpdesk/triage", input: "x" }),
    });
    const missing = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "scoped",
      body: JSON.stringify({ agent: "helpdesk/triagf", input: "x" }),
    });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    const [a, b] = [await errorOf(hidden), await errorOf(missing)];
    expect(a.message.replace("triage", "N")).toBe(b.message.replace("triagf", "N"));
    expect(a.message).not.toContain("did you mean");
  });

  it("lets a key scoped to a tag start and see the agents with that tag, and no other key of another tag", async () => {
    const body = JSON.stringify({ agent: "support-triage/triage", input: "ticket 7" });
    const started = await test.request(`/v1/t/${OTHER}/jobs`, { method: "POST", key: "support", body });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    expect((await test.request(`/v1/t/${OTHER}/jobs/${id}`, { key: "support" })).status).toBe(200);
    const refused = await test.request(`/v1/t/${OTHER}/jobs`, { method: "POST", key: "billing", body });
    expect(refused.status).toBe(404);
    expect((await test.request(`/v1/t/${OTHER}/jobs/${id}`, { key: "billing" })).status).toBe(404);
  });

  it("answers another plugin's address of an agent outside the key's scope as a missing agent, not with its owner", async () => {
    const hidden = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "scoped",
      body: JSON.stringify({ agent: "clash/triage", input: "x" }),
    });
    expect(hidden.status).toBe(404);
    const error = await errorOf(hidden);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).not.toContain("helpdesk");
  });

  it("answers a job of an agent outside the key's scope exactly as a job that does not exist", async () => {
    const job = (await (
      await test.request(`/v1/t/${LAB}/jobs`, {
        method: "POST",
        key: "admin",
        body: JSON.stringify({ agent: "helpdesk/triage", input: "not yours" }),
      })
    ).json()) as { id: string };
    await untilEnded(test, LAB, job.id);
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/events"],
      ["POST", "/cancel"],
    ] as const) {
      const hidden = await test.request(`/v1/t/${LAB}/jobs/${job.id}${path}`, { method, key: "scoped" });
      const missing = await test.request(`/v1/t/${LAB}/jobs/triage-nosuch${path}`, { method, key: "scoped" });
      expect(hidden.status).toBe(404);
      expect((await errorOf(hidden)).message.replace(job.id, "J")).toBe(
        (await errorOf(missing)).message.replace("triage-nosuch", "J"),
      );
    }
    const listed = (await (await test.request(`/v1/t/${LAB}/jobs?limit=500`, { key: "scoped" })).json()) as {
      jobs: { agent: string }[];
    };
    expect(listed.jobs.every((entry) => entry.agent === "helpdesk/asker")).toBe(true);
  });
});

describe("request guards", () => {
  it("refuses a state-changing request from another origin with 403, before authentication", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "admin",
      headers: { origin: "https://evil.example" },
      body: JSON.stringify({ agent: "helpdesk/triage", input: "x" }),
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe("FORBIDDEN");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a CORS preflight from another origin and never allows one", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("accepts a state-changing request from the server's own origin", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "runner",
      headers: { origin: test.url },
      body: JSON.stringify({ agent: "helpdesk/triage", input: "same origin" }),
    });
    expect(response.status).toBe(201);
  });

  it("refuses a body over the limit with 413 REQUEST_TOO_LARGE in the one error shape", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ agent: "helpdesk/triage", input: "x".repeat(10_000) }),
    });
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({
      code: "REQUEST_TOO_LARGE",
      status: 413,
      data: { limit: 4096 },
    });
  });

  it("sends the usual security headers", async () => {
    const response = await test.request("/v1/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("answers the bare tenant path as an unknown route for the caller's tenant and as a missing tenant for another", async () => {
    const own = await test.request(`/v1/t/${LAB}`, { key: "viewer" });
    expect(own.status).toBe(404);
    expect((await errorOf(own)).data).toMatchObject({ kind: "route" });
    const other = await test.request(`/v1/t/${OTHER}`, { key: "viewer" });
    expect(other.status).toBe(404);
    expect((await errorOf(other)).data).toMatchObject({ kind: "tenant" });
  });

  it("answers an unknown route with 404 in the one error shape", async () => {
    const response = await test.request("/v1/nothing-here");
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("NOT_FOUND");
  });

  it("shows no stack trace outside development", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs/triage-nosuch`, { key: "viewer" });
    expect((await errorOf(response)).stack).toBeUndefined();
  });
});
