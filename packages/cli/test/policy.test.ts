import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithVault } from "./governance-helpers.js";

let run: Awaited<ReturnType<typeof homeWithVault>>["run"];
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ run, cleanup } = await homeWithVault());
});
afterAll(() => cleanup());

describe("oz0 policy", () => {
  it("says no rule is set yet, so each agent's grant decides", async () => {
    expect((await run("policy", "list")).stdout).toBe(
      "tenant default has no tool policy rules: each agent's own grant decides what it may call\n",
    );
  });

  it("sets allow, ask and deny rules and lists them, the most specific first", async () => {
    expect((await run("policy", "deny", "vault/*")).stdout).toBe("deny vault/*\n");
    expect((await run("policy", "ask", "vault/vault.write")).stdout).toBe("ask vault/vault.write\n");
    expect((await run("policy", "allow", "oz.*")).stdout).toBe("allow oz.*\n");
    expect((await run("policy", "ask", "oz.*")).stdout).toBe("ask oz.* (was allow)\n");
    const list = await run("policy", "list");
    expect(list.stdout).toBe(
      [
        "ACTION  PATTERN            COVERS",
        "ask     vault/vault.write  function",
        "ask     oz.*               built-ins",
        "deny    vault/*            plugin",
        "",
      ].join("\n"),
    );
    const json = (await run("policy", "list", "--json")).json<{ pattern: string; action: string }[]>();
    expect(json.map(({ pattern, action }) => [pattern, action])).toEqual([
      ["vault/vault.write", "ask"],
      ["oz.*", "ask"],
      ["vault/*", "deny"],
    ]);
  });

  it("removes a rule, and refuses a pattern without one", async () => {
    expect((await run("policy", "remove", "oz.*")).stdout).toBe("removed the rule ask oz.*\n");
    const again = await run("policy", "remove", "oz.*");
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      "oz0: tenant default has no tool policy rule on oz.*; oz0 policy list shows its rules.\n",
    );
  });

  it("refuses a pattern naming another plugin's tool, with the owner (the owner check)", async () => {
    const result = await run("policy", "ask", "keeper/vault.*", "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: "OWNER_MISMATCH",
        message: "keeper/vault is not a tool of keeper: vault is vault's",
        data: { address: "keeper/vault", owner: "vault" },
        side: "user",
        status: 400,
        retryable: false,
      },
    });
  });

  it("refuses a look-alike pattern", async () => {
    const result = await run("policy", "deny", "vаult/*");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("'а' (U+0430)");
  });

  it("refuses a call by hand that a deny rule covers", async () => {
    const result = await run("tool", "call", "vault/vault.read", "--args", '{"key":"door"}');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: vault/vault.read: POLICY_VIOLATION: the tenant's tool policy denies vault/vault.read (rule: deny vault/*), so the call did not run\n",
    );
  });
});
