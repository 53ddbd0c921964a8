// The nodes API over a real server: the nodes that serve the tenant (the server's own worker
// among them), the shared pool map, and retrying a dead-lettered job, each with its role.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer, untilEnded } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

describe("GET /v1/t/{tenant}/nodes", () => {
  it("lists the server's own node, live, for an operator, and refuses a runner", async () => {
    const response = await test.request(`/v1/t/${LAB}/nodes`, { key: "admin" });
    expect(response.status).toBe(200);
    const { nodes } = (await response.json()) as { nodes: { state: string; labels: string[]; pool: null }[] };
    expect(nodes).toContainEqual(expect.objectContaining({ state: "live", labels: [], pool: null }));
    expect((await test.request(`/v1/t/${LAB}/nodes`, { key: "runner" })).status).toBe(403);
  });
});

describe("the shared pool map", () => {
  it("maps a plugin to a shared pool, which its next job's queue shows, and takes it back", async () => {
    const set = await test.request(`/v1/t/${LAB}/pools/helpdesk`, {
      method: "PUT",
      key: "admin",
      body: JSON.stringify({ pool: "shared", labels: ["gpu"] }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ plugin: "helpdesk", queue: "pool.shared.gpu" });
    const started = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ agent: "helpdesk/triage", input: "ticket 7" }),
    });
    const job = (await started.json()) as { id: string; queue: string };
    expect(job.queue).toBe("pool.shared.gpu");
    const got = (await (await test.request(`/v1/t/${LAB}/jobs/${job.id}`, { key: "viewer" })).json()) as {
      unserved: string | null;
    };
    expect(got.unserved).toContain("no live node serves queue pool.shared.gpu");
    const listed = (await (await test.request(`/v1/t/${LAB}/pools`, { key: "viewer" })).json()) as {
      pools: unknown[];
    };
    expect(listed.pools).toHaveLength(1);
    expect(
      (await test.request(`/v1/t/${LAB}/pools/helpdesk`, { method: "DELETE", key: "runner" })).status,
    ).toBe(403);
    expect(
      (await test.request(`/v1/t/${LAB}/pools/helpdesk`, { method: "DELETE", key: "admin" })).status,
    ).toBe(204);
    await test.request(`/v1/t/${LAB}/jobs/${job.id}/cancel`, { method: "POST", key: "runner" });
  });
});

describe("POST /v1/t/{tenant}/jobs/{id}/retry", () => {
  it("refuses a job that is not dead-lettered, and a runner", async () => {
    const started = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ agent: "helpdesk/triage", input: "ticket 8" }),
    });
    const job = (await started.json()) as { id: string };
    await untilEnded(test, LAB, job.id);
    expect(
      (await test.request(`/v1/t/${LAB}/jobs/${job.id}/retry`, { method: "POST", key: "runner" })).status,
    ).toBe(403);
    const refused = await test.request(`/v1/t/${LAB}/jobs/${job.id}/retry`, { method: "POST", key: "admin" });
    expect(refused.status).toBe(409);
  });
});
