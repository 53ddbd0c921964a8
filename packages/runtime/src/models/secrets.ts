// Secrets a tenant stores (model keys from `oz0 provider set <name> --api-key-stdin`, MCP
// servers' secrets, the secrets of plugins' configs), encrypted at rest with AES-256-GCM, so a
// copy of the database gives none away. The encryption key comes from
// OZ0_SECRET_KEY (every node of a PostgreSQL deployment sets the same), or else from
// `<home>/secret.key`, made on the first store with owner-only permissions. Each value is
// bound to its tenant and name, so a value copied to another row does not decrypt.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, copyFile, link, mkdir, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Oz0Error } from "@oz0/sdk";
import { keyHint } from "./redact.js";
import { SETTING_PREFIX, type TenantSettings } from "./settings.js";

/** The file the embedded runtime keeps its encryption key in, under oz0's home. */
export const SECRET_KEY_FILE = "secret.key";

/** The settings row that holds the secret `name`. */
export function secretKey(name: string): string {
  return SETTING_PREFIX.secret + name;
}

/** What a stored secret looks like in the settings table. */
export interface Sealed {
  readonly v: 1;
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
  /** `sk-…abcd`, for lists; absent for a key too short to hint at. */
  readonly hint?: string;
}

export interface SecretStoreOptions {
  readonly settings: TenantSettings;
  readonly home: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export class SecretStore {
  readonly #settings: TenantSettings;
  readonly #home: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #key: Buffer | undefined;

  constructor(options: SecretStoreOptions) {
    this.#settings = options.settings;
    this.#home = options.home;
    this.#env = options.env ?? process.env;
  }

  async set(tenant: string, name: string, value: string): Promise<void> {
    await this.#settings.put(tenant, secretKey(name), await this.seal(tenant, name, value));
  }

  /** The secret, decrypted; undefined when none is stored. */
  async get(tenant: string, name: string): Promise<string | undefined> {
    const sealed = await this.#settings.get<Sealed>(tenant, secretKey(name));
    if (sealed === undefined) return undefined;
    return this.unseal(tenant, name, sealed, (why) => unreadable(tenant, name, why));
  }

  /**
   * What `set` stores in the settings row `secret.<name>`, for a caller that writes the row in
   * a transaction of its own (with other rows that must change with it).
   */
  async seal(tenant: string, name: string, value: string): Promise<Sealed> {
    const key = await this.#encryptionKey(true, (why) => unreadable(undefined, undefined, why));
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(`${tenant}\0${name}`));
    const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    const hint = keyHint(value);
    return {
      v: 1,
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      data: data.toString("base64"),
      ...(hint === undefined ? {} : { hint }),
    };
  }

  /**
   * Decrypts what `seal` made for `tenant` and `name`; `fail` says, in the caller's terms, that
   * it cannot be (no encryption key here, or another one than it was sealed with).
   */
  async unseal(tenant: string, name: string, sealed: unknown, fail: (why: string) => Error): Promise<string> {
    const key = await this.#encryptionKey(false, fail);
    try {
      const { iv, tag, data } = sealed as Sealed;
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAAD(Buffer.from(`${tenant}\0${name}`));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
    } catch {
      throw fail("it was stored with another encryption key");
    }
  }

  /**
   * Every secret the tenant stores (model keys, MCP secrets, config secrets), decrypted: what a
   * redactor hides. One that cannot be decrypted here is left out (`unreadable`); reading it fails where it is used.
   */
  async values(tenant: string): Promise<{ values: string[]; unreadable: boolean }> {
    const rows = await this.#settings.list<Sealed>(tenant, SETTING_PREFIX.secret);
    const values: string[] = [];
    for (const [name, sealed] of rows) {
      const value = await this.unseal(tenant, name, sealed, (why) => new Error(why)).catch(() => undefined);
      if (value !== undefined) values.push(value);
    }
    return { values, unreadable: values.length < rows.length };
  }

  /** Whether a secret is stored, with its hint: never the secret itself. */
  async describe(tenant: string, name: string): Promise<{ readonly hint?: string } | undefined> {
    const sealed = await this.#settings.get<Sealed>(tenant, secretKey(name));
    if (sealed === undefined) return undefined;
    return sealed.hint === undefined ? {} : { hint: sealed.hint };
  }

  async remove(tenant: string, name: string): Promise<boolean> {
    return this.#settings.delete(tenant, secretKey(name));
  }

  async #encryptionKey(create: boolean, fail: (why: string) => Error): Promise<Buffer> {
    if (this.#key !== undefined) return this.#key;
    const fromEnv = this.#env.OZ0_SECRET_KEY?.trim();
    let material: Buffer;
    if (fromEnv !== undefined && fromEnv !== "") {
      material = Buffer.from(fromEnv, "utf8");
    } else {
      const file = join(this.#home, SECRET_KEY_FILE);
      const stored = await readFile(file, "utf8").catch(() => undefined);
      if (stored !== undefined) material = keyOf(file, stored, fail);
      else if (create) material = await makeKeyFile(this.#home, file, fail);
      else throw fail(`neither OZ0_SECRET_KEY is set nor ${file} exists`);
    }
    // Any text works as OZ0_SECRET_KEY; HKDF turns it into a 256-bit key.
    this.#key = Buffer.from(hkdfSync("sha256", material, "oz0", "oz0 secrets v1", 32));
    return this.#key;
  }
}

/** The bytes a key file made by `makeKeyFile` holds. */
const KEY_BYTES = 32;

/**
 * Makes `file` with a new key, unless another store or process made it first, and answers the
 * key it holds. The key is written whole to a file of its own and then linked at `file`, which
 * fails when `file` exists: a reader never finds the file there before its key is in it, where
 * a store that found it empty, mid-write, took a key of no bytes and sealed with it what no
 * other store could open.
 */
async function makeKeyFile(home: string, file: string, fail: (why: string) => Error): Promise<Buffer> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const draft = `${file}.${randomBytes(6).toString("hex")}`;
  const handle = await open(draft, "wx", 0o600);
  try {
    await handle.writeFile(`${randomBytes(KEY_BYTES).toString("base64")}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(draft, file).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return;
      // A file system without hard links: copied, still only where no file is.
      await copyFile(draft, file, constants.COPYFILE_EXCL).catch((copying: NodeJS.ErrnoException) => {
        if (copying.code !== "EEXIST") throw copying;
      });
    });
  } finally {
    await unlink(draft).catch(() => {});
  }
  await chmod(file, 0o600).catch(() => {});
  return keyOf(file, await readFile(file, "utf8"), fail);
}

/** The key `file`'s text holds, refused when it is not one (an empty or cut file). */
function keyOf(file: string, text: string, fail: (why: string) => Error): Buffer {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== KEY_BYTES) {
    throw fail(
      `${file} holds no key (${key.length} bytes where ${KEY_BYTES} are made): restore the file from a copy, or set OZ0_SECRET_KEY to the key the secrets were stored with`,
    );
  }
  return key;
}

function unreadable(tenant: string | undefined, name: string | undefined, why: string): Oz0Error {
  const what = name === undefined ? "stored keys" : `the key ${name} stored in tenant ${tenant}`;
  const provider = name === undefined ? undefined : /^provider\.(.+)\.api_key$/.exec(name)?.[1];
  return new Oz0Error(
    "MODEL_NOT_CONFIGURED",
    `${what} cannot be read here: ${why}. Set OZ0_SECRET_KEY to the same value in every oz0 process ` +
      "that shares this database, or store the key again (oz0 provider set <name> --api-key-stdin).",
    { data: { alias: "", ...(provider === undefined ? {} : { provider }) } },
  );
}
