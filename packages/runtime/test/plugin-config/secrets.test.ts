// A plugin config's secrets (what its admin spec's redact() masks) are stored encrypted, as
// model keys are: the database holds neither them nor anything they could be read back from
// without the encryption key, and only the plugin's own code gets them in clear.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { pluginConfigKey } from "../../src/plugin-config/index.js";
import { Runtime } from "../../src/runtime.js";

const KEYRING = fileURLToPath(new URL("../fixtures/secrets/keyring", import.meta.url));
const TENANT = "default";
const TOKEN = "tok-live-5f9c2a7e41d8b3";
const PASSWORD = "pw-3c8e1b9d77a2";

let home: string;
let runtime: Runtime;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-config-secrets-"));
  runtime = await Runtime.open({ home, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, KEYRING);
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

/** Every settings row of the tenant, as stored. */
async function settingsText(): Promise<string> {
  const rows = await runtime.store.db.selectFrom("settings").select(["key", "value"]).execute();
  return rows.map((row) => `${row.key}=${row.value}`).join("\n");
}

/** The database file and its write-ahead log, as bytes on disk. */
async function databaseBytes(): Promise<string> {
  const parts = await Promise.all(
    ["oz0.db", "oz0.db-wal"].map((file) => readFile(join(home, file)).catch(() => Buffer.alloc(0))),
  );
  return Buffer.concat(parts).toString("latin1");
}

describe("plugin config secrets", () => {
  it("stores what redact() masks encrypted, shows it masked, and gives the plugin's code it in clear", async () => {
    const view = await runtime.catalog.configs.set(TENANT, "keyring", {
      token: TOKEN,
      accounts: [{ user: "ci", password: PASSWORD }],
    });
    expect(view.config).toEqual({
      endpoint: "https://vault.example",
      token: "[hidden]",
      accounts: [{ user: "ci", password: "[hidden]" }],
    });
    expect((await runtime.catalog.configs.show(TENANT, "keyring")).config).toEqual(view.config);

    const stored = await settingsText();
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).toContain('"user":"ci"');
    const bytes = await databaseBytes();
    expect(bytes).not.toContain(TOKEN);
    expect(bytes).not.toContain(PASSWORD);

    expect(await runtime.catalog.config(TENANT, "keyring")).toEqual({
      endpoint: "https://vault.example",
      token: TOKEN,
      accounts: [{ user: "ci", password: PASSWORD }],
    });
  });

  it("reads a config stored in clear by an older oz0, and encrypts its secrets as it does", async () => {
    await runtime.catalog.configs.unset(TENANT, "keyring");
    expect(await settingsText()).not.toContain("keyring.config#");
    await runtime.store.db
      .insertInto("settings")
      .values({
        tenant: TENANT,
        key: pluginConfigKey("keyring"),
        value: JSON.stringify({ token: TOKEN }),
        updated_at: 1,
      })
      .execute();

    expect(await runtime.catalog.config(TENANT, "keyring")).toMatchObject({ token: TOKEN });
    expect(await settingsText()).not.toContain(TOKEN);
    expect(await runtime.catalog.config(TENANT, "keyring")).toMatchObject({ token: TOKEN });
    expect((await runtime.catalog.configs.show(TENANT, "keyring")).config).toMatchObject({
      token: "[hidden]",
    });
  });

  it("forgets the secrets with the rest when the config is unset", async () => {
    await runtime.catalog.configs.set(TENANT, "keyring", { token: TOKEN });
    expect(await runtime.catalog.configs.unset(TENANT, "keyring")).toBe(true);
    expect(await settingsText()).not.toContain("keyring.config");
    expect(await runtime.catalog.config(TENANT, "keyring")).toMatchObject({ token: "" });
  });
});

describe("config secrets marked in the schema", () => {
  const LOCKBOX = fileURLToPath(new URL("../fixtures/secrets/lockbox", import.meta.url));
  const KEY = "key-schema-8Jd3Lw5Qz1";
  const admin = localAdmin(TENANT, "cli:alice");

  it("a string the schema marks writeOnly is a secret without redact(): shown masked, stored encrypted, given in clear to the plugin", async () => {
    await runtime.catalog.install(TENANT, LOCKBOX);
    const view = await runtime.services.pluginConfig.set(admin, "lockbox", { apiKey: KEY });
    expect(view.config).toEqual({ url: "https://box.example", apiKey: "[secret]" });
    expect(await settingsText()).not.toContain(KEY);
    expect(await runtime.catalog.configs.effective(TENANT, "lockbox")).toMatchObject({ apiKey: KEY });
    // The tool gets it in clear, and what a call by hand reports has it redacted, as any secret.
    const report = await runtime.services.tools.call(admin, "lockbox/box.key", {});
    expect(report).toMatchObject({ ok: true, result: { key: "[redacted]" } });
  });

  it("a redacted value sent back keeps the secret", async () => {
    const shown = (await runtime.services.pluginConfig.show(admin, "lockbox")).config;
    await runtime.services.pluginConfig.set(admin, "lockbox", { ...shown, url: "https://box.internal" });
    expect(await runtime.catalog.configs.effective(TENANT, "lockbox")).toEqual({
      url: "https://box.internal",
      apiKey: KEY,
    });
  });
});
