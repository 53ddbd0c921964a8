// Plugins over HTTP: list, inspect with the bundle's digest, install and update by uploading a
// bundle archive, and remove. An install by upload runs a job end to end; an upload over the
// limit is 413 and leaves the tenant as it was; a viewer's upload is 403 before it is read.
import { packFolder } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, OTHER, SAMPLE, type TestServer, testServer, untilEnded } from "./helpers.js";

let test: TestServer;
let archive: Buffer;
let digest: string;

const gzip = { "content-type": "application/gzip" };

beforeAll(async () => {
  test = await testServer();
  ({ archive, digest } = await packFolder(SAMPLE));
});
afterAll(async () => {
  await test.close();
});

async function pluginNames(tenant: string): Promise<string[]> {
  const listed = await test.request(`/v1/t/${tenant}/plugins`, {
    key: tenant === LAB ? "viewer" : "outsider",
  });
  expect(listed.status).toBe(200);
  return ((await listed.json()) as { plugins: { name: string }[] }).plugins.map((plugin) => plugin.name);
}

describe("plugin grants", () => {
  it("revokes and grants what a plugin's uses: asks, as an admin, and inspect shows it", async () => {
    const revoked = await test.request(`/v1/t/${OTHER}/plugins/support-triage/grant`, {
      method: "DELETE",
      key: "outsider",
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ action: "revoke", plugin: "support-triage", tenant: OTHER });
    const bare = (await (
      await test.request(`/v1/t/${OTHER}/plugins/support-triage`, { key: "outsider" })
    ).json()) as {
      grant: unknown;
    };
    expect(bare.grant).toBeNull();
    const granted = await test.request(`/v1/t/${OTHER}/plugins/support-triage/grant`, {
      method: "POST",
      key: "outsider",
    });
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({
      action: "grant",
      plugin: "support-triage",
      version: "1.2.0",
    });
    const inspected = (await (
      await test.request(`/v1/t/${OTHER}/plugins/support-triage`, { key: "outsider" })
    ).json()) as { grant: { by: string } | null };
    expect(inspected.grant?.by).toMatch(/^key:/);
  });

  it("refuses a grant to a runner with 403, and of a plugin that is not installed with 404", async () => {
    const runner = await test.request(`/v1/t/${LAB}/plugins/helpdesk/grant`, {
      method: "POST",
      key: "runner",
    });
    expect(runner.status).toBe(403);
    const missing = await test.request(`/v1/t/${LAB}/plugins/nosuch/grant`, { method: "POST", key: "admin" });
    expect(missing.status).toBe(404);
  });
});

describe("plugins", () => {
  it("removes a plugin, installs it again by upload, and the upload runs a job end to end", async () => {
    const removed = await test.request(`/v1/t/${OTHER}/plugins/support-triage`, {
      method: "DELETE",
      key: "outsider",
    });
    expect(removed.status).toBe(200);
    expect(await pluginNames(OTHER)).not.toContain("support-triage");
    const installed = await test.request(`/v1/t/${OTHER}/plugins`, {
      method: "POST",
      key: "outsider",
      headers: gzip,
      body: archive,
    });
    expect(installed.status).toBe(201);
    expect(await pluginNames(OTHER)).toContain("support-triage");
    const inspected = await test.request(`/v1/t/${OTHER}/plugins/support-triage`, { key: "outsider" });
    expect(await inspected.json()).toMatchObject({ name: "support-triage", digest });
    const started = await test.request(`/v1/t/${OTHER}/jobs`, {
      method: "POST",
      key: "outsider",
      body: JSON.stringify({ agent: "support-triage/triage", input: "ticket 9" }),
    });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    expect((await untilEnded(test, OTHER, id, "outsider")).status).toBe("succeeded");
  });

  it("updates a plugin by upload", async () => {
    const updated = await test.request(`/v1/t/${OTHER}/plugins?force=false`, {
      method: "PUT",
      key: "outsider",
      headers: gzip,
      body: archive,
    });
    expect(updated.status).toBe(200);
  });

  it("refuses an upload that is not a bundle archive, installing nothing", async () => {
    const before = await pluginNames(LAB);
    const refused = await test.request(`/v1/t/${LAB}/plugins`, {
      method: "POST",
      key: "admin",
      headers: gzip,
      body: "not an archive",
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await pluginNames(LAB)).toEqual(before);
  });

  it("refuses a viewer's install, update and remove with 403 before reading the upload", async () => {
    for (const [method, path] of [
      ["POST", "/plugins"],
      ["PUT", "/plugins"],
      ["DELETE", "/plugins/helpdesk"],
    ] as const) {
      const refused = await test.request(`/v1/t/${LAB}${path}`, {
        method,
        key: "viewer",
        headers: gzip,
        body: "x",
      });
      expect(refused.status).toBe(403);
    }
    expect(await pluginNames(LAB)).toContain("helpdesk");
  });

  it("answers a missing plugin with 404", async () => {
    expect((await test.request(`/v1/t/${LAB}/plugins/nosuch`, { key: "viewer" })).status).toBe(404);
  });
});

describe("the upload limit", () => {
  it("refuses an upload over the limit with 413 and leaves the tenant as it was, while JSON keeps its own limit", async () => {
    const small = await testServer({ uploadLimit: 512, bodyLimit: 1 << 20 });
    try {
      const before = await small.request(`/v1/t/${OTHER}/plugins`, { key: "outsider" });
      const refused = await small.request(`/v1/t/${OTHER}/plugins`, {
        method: "PUT",
        key: "outsider",
        headers: gzip,
        body: archive,
      });
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("REQUEST_TOO_LARGE");
      const after = await small.request(`/v1/t/${OTHER}/plugins`, { key: "outsider" });
      expect(await after.json()).toEqual(await before.json());
      // A JSON body larger than the upload limit is within its own.
      const started = await small.request(`/v1/t/${OTHER}/jobs`, {
        method: "POST",
        key: "outsider",
        body: JSON.stringify({ agent: "support-triage/triage", input: "x".repeat(2048) }),
      });
      expect(started.status).toBe(201);
    } finally {
      await small.close();
    }
  });
});
