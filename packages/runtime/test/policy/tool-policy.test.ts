// Setting, listing and removing tool policy rules: patterns are owner-checked through the
// catalog and match exact names only.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, lab } from "./helpers.js";

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(() => l.close());

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isOz0Error(error)) throw new Error(`expected an Oz0Error, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe("setting a rule", () => {
  it("writes one rule per pattern, and setting the pattern again replaces its action", async () => {
    const tenant = await l.tenant();
    expect(await l.runtime.policy.set(tenant, "ask", "vault/vault.*")).toMatchObject({
      previous: null,
      rule: { pattern: "vault/vault.*", action: "ask", covers: "tool", specificity: 2 },
    });
    expect(await l.runtime.policy.set(tenant, "deny", "vault/vault.*")).toMatchObject({
      previous: "ask",
      rule: { action: "deny" },
    });
    expect((await l.runtime.policy.list(tenant)).map(({ pattern, action }) => [pattern, action])).toEqual([
      ["vault/vault.*", "deny"],
    ]);
  });

  it("lists the most specific rules first", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/*");
    await l.runtime.policy.set(tenant, "allow", "oz.*");
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    await l.runtime.policy.set(tenant, "allow", "oz.delegate");
    await l.runtime.policy.set(tenant, "ask", "vault/audit.*");
    expect((await l.runtime.policy.list(tenant)).map((rule) => [rule.pattern, rule.covers])).toEqual([
      ["oz.delegate", "built-in"],
      ["vault/vault.write", "function"],
      ["oz.*", "built-ins"],
      ["vault/audit.*", "tool"],
      ["vault/*", "plugin"],
    ]);
  });

  it("refuses a pattern naming another plugin's tool, with the owner the catalog knows", async () => {
    const tenant = await l.tenant();
    expect(await refusal(l.runtime.policy.set(tenant, "ask", "keeper/vault.*"))).toEqual({
      code: "OWNER_MISMATCH",
      message: "keeper/vault is not a tool of keeper: vault is vault's",
    });
    expect(await refusal(l.runtime.policy.set(tenant, "deny", "audit/vault.write"))).toMatchObject({
      code: "OWNER_MISMATCH",
    });
    expect(await l.runtime.policy.list(tenant)).toEqual([]);
  });

  it("refuses a look-alike pattern: names are printable ASCII, compared byte for byte", async () => {
    const tenant = await l.tenant();
    const lookalike = await refusal(l.runtime.policy.set(tenant, "allow", "vаult/*"));
    expect(lookalike.code).toBe("INVALID_ADDRESS");
    expect(lookalike.message).toContain("'а' (U+0430)");
    expect((await refusal(l.runtime.policy.set(tenant, "allow", "Vault/*"))).code).toBe("INVALID_ADDRESS");
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault/vault.Write"))).code).toBe("NOT_FOUND");
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault/vault.write "))).code).toBe(
      "INVALID_ADDRESS",
    );
  });

  it("refuses what names nothing installed: a plugin, a tool, a function, a built-in", async () => {
    const tenant = await l.tenant();
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "nobody/*"))).code).toBe("NOT_FOUND");
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault/safe.*"))).code).toBe("NOT_FOUND");
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault/vault.erase"))).code).toBe("NOT_FOUND");
    expect(await refusal(l.runtime.policy.set(tenant, "deny", "oz.launch"))).toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringMatching(
        /^oz0 has no built-in oz\.launch; its built-ins: oz\.fail, oz\.ask_user/,
      ),
    });
  });

  it("refuses a malformed pattern and a tenant that does not exist", async () => {
    const tenant = await l.tenant();
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault"))).code).toBe("INVALID_ADDRESS");
    expect((await refusal(l.runtime.policy.set(tenant, "deny", "vault/vault.wr*"))).code).toBe(
      "INVALID_ADDRESS",
    );
    expect((await refusal(l.runtime.policy.set("nowhere", "deny", "oz.*"))).code).toBe("NOT_FOUND");
    expect((await refusal(l.runtime.policy.list("nowhere"))).code).toBe("NOT_FOUND");
  });
});

describe("removing a rule", () => {
  it("removes the rule of the pattern, even one on a plugin since removed", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
    await l.runtime.catalog.remove(tenant, "vault");
    expect(await l.runtime.policy.remove(tenant, "vault/vault.write")).toMatchObject({ action: "deny" });
    expect(await l.runtime.policy.list(tenant)).toEqual([]);
  });

  it("refuses a pattern that has no rule", async () => {
    const tenant = await l.tenant();
    expect(await refusal(l.runtime.policy.remove(tenant, "vault/*"))).toEqual({
      code: "NOT_FOUND",
      message: `tenant ${tenant} has no tool policy rule on vault/*; oz0 policy list shows its rules.`,
    });
  });
});

describe("calls by hand", () => {
  it("are refused by a deny rule and by an ask rule, since a call by hand cannot wait", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
    await l.runtime.policy.set(tenant, "ask", "vault/vault.read");
    const denied = await l.runtime.tools.call(tenant, "vault/vault.write", { key: "a", value: "b" });
    expect(denied).toMatchObject({ ok: false, error: { code: "POLICY_VIOLATION" } });
    const asked = await l.runtime.tools.call(tenant, "vault/vault.read", { key: "a" });
    expect(asked).toMatchObject({ ok: false, error: { code: "APPROVAL_REQUIRED" } });
    expect(asked.error?.message).toBe(
      "vault/vault.read needs a person's approval for each call (rule: ask vault/vault.read), and a call by hand cannot wait for one; call it from a job, whose call waits for oz0 approval approve, or change the rule (oz0 policy allow|remove)",
    );
    expect(await l.runtime.tools.call(tenant, "vault/audit.note", { line: "x" })).toMatchObject({ ok: true });
  });
});
