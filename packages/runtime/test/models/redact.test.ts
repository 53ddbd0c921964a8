// One redactor knows a tenant's secret values (stored model keys, keys its providers read from
// the environment, MCP servers' secrets, plugin config secrets) and replaces each wherever it
// appears, also in text that arrives in pieces.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Models, redactorOf } from "../../src/models/index.js";
import { SECRET_KEY_FILE } from "../../src/models/secrets.js";
import { Runtime } from "../../src/runtime.js";

const KEYRING = fileURLToPath(new URL("../fixtures/secrets/keyring", import.meta.url));
const TENANT = "default";
const SECRET = "sk-stream-4Fh7Jk2Lm9Qw";

/** Everything `redactorOf([SECRET]).stream` lets out when `text` comes in `pieces`. */
function streamed(pieces: readonly string[], secrets: readonly string[] = [SECRET]): string {
  let out = "";
  const stream = redactorOf(secrets).stream((text) => {
    out += text;
  });
  for (const piece of pieces) stream.write(piece);
  stream.end();
  return out;
}

describe("the redactor", () => {
  it("never lets a secret out of streamed text, wherever the pieces split it", () => {
    const text = `the key is ${SECRET}, the key is ${SECRET}.`;
    for (let cut = 1; cut < text.length; cut++) {
      for (let second = cut + 1; second <= text.length; second += 5) {
        const pieces = [text.slice(0, cut), text.slice(cut, second), text.slice(second)];
        expect([pieces, streamed(pieces)]).toEqual([pieces, "the key is [redacted], the key is [redacted]."]);
      }
    }
    expect(streamed([...text])).toBe("the key is [redacted], the key is [redacted].");
  });

  it("lets out what only looked like the start of a secret, when the next piece shows it is not", () => {
    let out = "";
    const stream = redactorOf([SECRET]).stream((text) => {
      out += text;
    });
    stream.write("so sk-str");
    expect(out).toBe("so ");
    stream.write("ong words.");
    expect(out).toBe("so sk-strong words.");
    stream.write(" and sk-");
    expect(out).toBe("so sk-strong words. and ");
    stream.end();
    expect(out).toBe("so sk-strong words. and sk-");
  });

  it("holds a whole secret back with its end when another might begin inside it, as the whole text would be redacted", () => {
    const secrets = ["abc123xyz", "xyz-and-more"];
    expect(streamed(["say abc123xyz", "!"], secrets)).toBe("say [redacted]!");
    for (const end of ["-and-more", "-and-less"]) {
      const whole = `say abc123xyz${end}`;
      expect(streamed(["say abc123xyz", end], secrets)).toBe(redactorOf(secrets).text(whole));
    }
  });
});

describe("a tenant's redactor", () => {
  let home: string;
  let runtime: Runtime;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "oz0-redactor-"));
    runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
    await runtime.catalog.install(TENANT, KEYRING);
  });
  afterAll(async () => {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  });

  it("knows its stored keys, its providers' keys in the environment, MCP secrets and config secrets", async () => {
    const stored = "sk-stored-8Gt3Hy6Ju1Ki";
    const fromEnv = "sk-env-2Wq5Er8Ty4Ui";
    const standard = "sk-openai-6Zx9Cv3Bn7Mm";
    const mcp = "mcp-token-5Rt2Yu8Io3";
    const config = "tok-config-1Pl4Ok7Ij0";
    await runtime.models.setProvider(TENANT, "openai-compatible", {
      baseUrl: "http://127.0.0.1:9",
      apiKey: stored,
    });
    await runtime.models.setProvider(TENANT, "local-llm", {
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:9",
      apiKeyEnv: "LOCAL_LLM_KEY",
    });
    await runtime.mcp.secrets.set(TENANT, "keyring", "vault", "env", "API_TOKEN", mcp);
    await runtime.catalog.configs.set(TENANT, "keyring", { token: config });
    const models = new Models({
      store: runtime.store,
      home,
      env: { LOCAL_LLM_KEY: fromEnv, OPENAI_API_KEY: standard, UNRELATED: "not-a-secret-at-all" },
    });
    const redactor = await models.redactor(TENANT);
    const text = [stored, fromEnv, standard, mcp, config, "not-a-secret-at-all"].join(" ");
    expect(redactor.text(text)).toBe(
      "[redacted] [redacted] [redacted] [redacted] [redacted] not-a-secret-at-all",
    );
    expect(redactor.json({ [stored]: `"${mcp}"` })).toEqual({ "[redacted]": '"[redacted]"' });
  });
  it("keeps its redactor while the tenant's settings and the environment it reads are as they were", async () => {
    const models = new Models({ store: runtime.store, home, env: { OPENAI_API_KEY: "sk-kept-3Ka8Lq2Wz6" } });
    const first = await models.redactor(TENANT);
    expect(await models.redactor(TENANT)).toBe(first);
    expect(first.text("sk-kept-3Ka8Lq2Wz6")).toBe("[redacted]");
  });

  it("hides a secret stored since its last call at the next, and no longer one removed", async () => {
    const models = new Models({ store: runtime.store, home, env: {} });
    const secret = "sk-later-7Hn2Bv5Cx9";
    expect((await models.redactor(TENANT)).text(secret)).toBe(secret);
    await runtime.models.setProvider(TENANT, "later-llm", {
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:9",
      apiKey: secret,
    });
    expect((await models.redactor(TENANT)).text(secret)).toBe("[redacted]");
    await runtime.models.removeProvider(TENANT, "later-llm");
    expect((await models.redactor(TENANT)).text(secret)).toBe(secret);
  });

  it("hides a key set in the environment since its last call at the next, and no longer one unset", async () => {
    const env: Record<string, string | undefined> = {};
    const models = new Models({ store: runtime.store, home, env });
    const key = "sk-env-later-4Df6Gh8Jk";
    expect((await models.redactor(TENANT)).text(key)).toBe(key);
    env.ANTHROPIC_API_KEY = key;
    expect((await models.redactor(TENANT)).text(key)).toBe("[redacted]");
    delete env.ANTHROPIC_API_KEY;
    expect((await models.redactor(TENANT)).text(key)).toBe(key);
  });

  it("hides a stored secret it could not decrypt once the encryption key is there, without a change of settings", async () => {
    const secret = "sk-sealed-9Mn3Bv6Cx2";
    await runtime.models.setProvider(TENANT, "sealed-llm", {
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:9",
      apiKey: secret,
    });
    const elsewhere = await mkdtemp(join(tmpdir(), "oz0-redactor-key-"));
    try {
      const models = new Models({ store: runtime.store, home: elsewhere, env: {} });
      expect((await models.redactor(TENANT)).text(secret)).toBe(secret);
      await copyFile(join(home, SECRET_KEY_FILE), join(elsewhere, SECRET_KEY_FILE));
      expect((await models.redactor(TENANT)).text(secret)).toBe("[redacted]");
    } finally {
      await runtime.models.removeProvider(TENANT, "sealed-llm");
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
