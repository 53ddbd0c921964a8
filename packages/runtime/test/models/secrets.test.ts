// The encryption key of an embedded home: made once, on the first secret stored, whoever stores
// it first, and read back whole by every store that shares the home.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_KEY_FILE, SecretStore } from "../../src/models/index.js";
import { TenantSettings } from "../../src/models/settings.js";
import { openStore, type Store } from "../../src/store/index.js";

const TENANT = "default";

let store: Store;
let settings: TenantSettings;
const homes: string[] = [];

beforeAll(async () => {
  store = await openStore({ memory: true });
  settings = new TenantSettings(store.db, store.clockSql);
});
afterAll(async () => {
  await store.close();
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

async function freshHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "oz0-secrets-"));
  homes.push(home);
  return home;
}

describe("the encryption key of a home", () => {
  it("is made once when secrets are first stored at once, by one store or several, and each is read back", async () => {
    const home = await freshHome();
    // The runtime holds several stores on one home (models, plugin configs, remotes).
    const writers = Array.from({ length: 32 }, () => new SecretStore({ settings, home, env: {} }));
    await Promise.all(
      writers.flatMap((writer, index) =>
        ["a", "b", "c"].map((name) => writer.set(TENANT, `${name}${index}`, `value ${name}${index}`)),
      ),
    );
    const reader = new SecretStore({ settings, home, env: {} });
    for (const [index, writer] of writers.entries()) {
      for (const name of ["a", "b", "c"]) {
        expect(await reader.get(TENANT, `${name}${index}`)).toBe(`value ${name}${index}`);
        expect(await writer.get(TENANT, `${name}${index}`)).toBe(`value ${name}${index}`);
      }
    }
  });

  it("refuses a key file that holds no key, naming the file and what to do, and stores nothing with it", async () => {
    const home = await freshHome();
    await writeFile(join(home, SECRET_KEY_FILE), "\n", { mode: 0o600 });
    const secrets = new SecretStore({ settings, home, env: {} });
    await expect(secrets.set(TENANT, "empty-key", "value")).rejects.toThrow(
      `${join(home, SECRET_KEY_FILE)} holds no key`,
    );
    expect(await settings.get(TENANT, "secret.empty-key")).toBeUndefined();
  });
});
