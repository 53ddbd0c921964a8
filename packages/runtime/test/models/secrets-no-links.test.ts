// The home's encryption key on a file system without hard links (some network and container
// mounts refuse link(2)): the key file is copied into place instead, still only where none is.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SECRET_KEY_FILE, SecretStore } from "../../src/models/index.js";
import { TenantSettings } from "../../src/models/settings.js";
import { openStore, type Store } from "../../src/store/index.js";

vi.mock("node:fs/promises", async (original) => ({
  ...(await original<typeof import("node:fs/promises")>()),
  link: async () => {
    throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
  },
}));

let store: Store;
let home: string;

beforeAll(async () => {
  store = await openStore({ memory: true });
  home = await mkdtemp(join(tmpdir(), "oz0-secrets-no-links-"));
});
afterAll(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

describe("the encryption key of a home without hard links", () => {
  it("is copied into place, read back by another store, and leaves no draft behind", async () => {
    const settings = new TenantSettings(store.db, store.clockSql);
    await new SecretStore({ settings, home, env: {} }).set("default", "token", "value");
    expect(await new SecretStore({ settings, home, env: {} }).get("default", "token")).toBe("value");
    expect(await readdir(home)).toEqual([SECRET_KEY_FILE]);
  });
});
