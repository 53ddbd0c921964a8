import { openStore } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithVault } from "./governance-helpers.js";

let run: Awaited<ReturnType<typeof homeWithVault>>["run"];
let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ run, home, cleanup } = await homeWithVault());
});
afterAll(() => cleanup());

describe("oz0 kill and oz0 revive", () => {
  it("kills an agent: it starts no job, with a clear error, until revived", async () => {
    expect((await run("kill", "agent", "vault/keeper")).stdout).toBe(
      "agent vault/keeper killed; oz0 revive agent vault/keeper lets it run again\n",
    );
    const refused = await run("run", "vault/keeper", "open it");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^oz0: agent vault\/keeper is stopped by a kill switch by cli:.+, so it runs no job; oz0 revive agent vault\/keeper lets it run again\n$/,
    );
    expect((await run("revive", "agent", "vault/keeper")).stdout).toBe("agent vault/keeper revived\n");
    expect((await run("run", "vault/keeper", "open it")).code).toBe(0);
  });

  it("kills a tool: its calls are refused and the model is told, in a job and by hand", async () => {
    await run("kill", "tool", "vault/vault");
    const ran = await run("run", "vault/keeper", "open it", "--json");
    expect(ran.json()).toMatchObject({ status: "succeeded" });
    const trace = (await run("job", "trace", ran.json<{ id: string }>().id, "--json")).json<
      { kind: string; data: { error?: { code: string } } }[]
    >();
    expect(trace.find((entry) => entry.kind === "tool_result")?.data.error?.code).toBe("KILLED");
    const byHand = await run("tool", "call", "vault/vault.read", "--args", '{"key":"door"}');
    expect(byHand.code).toBe(1);
    expect(byHand.stderr).toContain("vault/vault.read: KILLED: vault/vault.read belongs to tool vault/vault");
    await run("revive", "tool", "vault/vault");
  });

  it("refuses an address that names another plugin, with the owner", async () => {
    const result = await run("kill", "agent", "audit/keeper");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: audit/keeper is not an agent of audit: keeper is vault's\n");
  });

  it("lists the switches that are on", async () => {
    expect((await run("kill", "list")).stdout).toBe("no kill switch is on in tenant default\n");
    await run("kill", "tool", "vault/audit");
    const list = await run("kill", "list");
    expect(list.stdout).toMatch(/^KIND +ADDRESS +BY +SINCE\ntool +vault\/audit +cli:\S+ +\d{4}-\d\d-\d\dT/);
    expect((await run("kill", "list", "--json")).json()).toEqual([
      expect.objectContaining({ kind: "tool", address: "vault/audit" }),
    ]);
    await run("revive", "tool", "vault/audit");
  });

  it("kills a clashing agent and tool by address while two plugins define their names", async () => {
    // A second plugin with the same agent name and tool ID, as a store from before installs refused it holds.
    const store = await openStore({ home });
    try {
      await store.db
        .insertInto("plugins")
        .values({
          tenant: "default",
          name: "vault-copy",
          version: "0.9.0",
          dir: "/restored/vault-copy",
          manifest: JSON.stringify({ name: "vault-copy", version: "0.9.0" }),
          installed_at: 1,
        })
        .execute();
      await store.db
        .insertInto("parts")
        .values([
          {
            tenant: "default",
            kind: "agent",
            name: "keeper",
            plugin: "vault-copy",
            definition: JSON.stringify({ file: "plugin.yaml", definition: { description: "restored" } }),
          },
          {
            tenant: "default",
            kind: "tool",
            name: "vault",
            plugin: "vault-copy",
            definition: JSON.stringify({ description: "restored", source: "code" }),
          },
        ])
        .execute();
    } finally {
      await store.close();
    }
    expect((await run("kill", "agent", "vault-copy/keeper")).stdout).toBe(
      "agent vault-copy/keeper killed; oz0 revive agent vault-copy/keeper lets it run again\n",
    );
    expect((await run("kill", "tool", "vault/vault")).stdout).toBe(
      "tool vault/vault killed; oz0 revive tool vault/vault lets it run again\n",
    );
    const bare = await run("kill", "agent", "keeper");
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("name it by its address: vault/keeper or vault-copy/keeper.");
    expect((await run("revive", "agent", "vault-copy/keeper")).code).toBe(0);
    expect((await run("revive", "tool", "vault/vault")).code).toBe(0);
    expect((await run("plugin", "remove", "vault-copy")).code).toBe(0);
  });
});
