// Records over HTTP: what a plugin's tools keep, read by an operator, held, and erased by an
// admin; a caller limited to some agents reaches none of them, and each change is audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer } from "./helpers.js";

let t: TestServer;
beforeAll(async () => {
  t = await testServer();
  const api = t.runtime.catalog.recordsOf(LAB, "helpdesk");
  await api.put(
    "ticket",
    "t-1",
    { title: "Printer on fire", reporter: "Grace Hopper" },
    { subject: "person:grace" },
  );
  await api.put(
    "ticket",
    "t-1",
    { title: "Printer out", reporter: "Grace Hopper" },
    { subject: "person:grace" },
  );
});
afterAll(() => t.close());

const post = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("records over HTTP", () => {
  it("lists the latest version of each record, and gets any version by number", async () => {
    const listed = await t.request(`/v1/t/${LAB}/records?plugin=helpdesk`, { key: "admin" });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      records: [expect.objectContaining({ plugin: "helpdesk", kind: "ticket", key: "t-1", version: 2 })],
    });
    const first = await t.request(`/v1/t/${LAB}/records/helpdesk/ticket/t-1?version=1`, { key: "admin" });
    expect(((await first.json()) as { value: { title: string } }).value.title).toBe("Printer on fire");
    const missing = await t.request(`/v1/t/${LAB}/records/helpdesk/ticket/t-9`, { key: "admin" });
    expect(missing.status).toBe(404);
  });

  it("refuses a viewer (records need an operator) and a key limited to some agents", async () => {
    const viewer = await t.request(`/v1/t/${LAB}/records`, { key: "viewer" });
    expect(viewer.status).toBe(403);
    const scoped = await t.request(`/v1/t/${LAB}/records`, { key: "scopedOperator" });
    expect(scoped.status).toBe(403);
    expect(JSON.stringify(await scoped.json())).toContain("records belong to plugins, not agents");
  });

  it("holds a subject's records against erasure, then erases them once released, audited", async () => {
    const held = await t.request(`/v1/t/${LAB}/record-holds`, {
      key: "admin",
      ...post({ subject: "person:grace", reason: "case 7" }),
    });
    expect(held.status).toBe(201);
    const { id } = (await held.json()) as { id: string };
    const refused = await t.request(`/v1/t/${LAB}/record-erasures`, {
      key: "admin",
      ...post({ subject: "person:grace" }),
    });
    expect(refused.status).toBe(409);
    await t.request(`/v1/t/${LAB}/record-holds/${id}/release`, { key: "admin", method: "POST" });
    const erased = await t.request(`/v1/t/${LAB}/record-erasures`, {
      key: "admin",
      ...post({ subject: "person:grace" }),
    });
    expect(await erased.json()).toMatchObject({ subject: "person:grace", records: 1, versions: 2 });
    const audit = await t.request(`/v1/t/${LAB}/audit?action=records`, { key: "admin" });
    const actions = (
      (await audit.json()) as { entries: { action: string; detail: { outcome: string } }[] }
    ).entries.map((entry) => `${entry.action} ${entry.detail.outcome}`);
    expect(actions).toEqual([
      "records.erase ok",
      "records.release ok",
      "records.erase failed",
      "records.hold ok",
    ]);
  });
});
