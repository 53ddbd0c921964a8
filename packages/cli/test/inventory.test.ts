import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithVault } from "./governance-helpers.js";

let run: Awaited<ReturnType<typeof homeWithVault>>["run"];
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ run, cleanup } = await homeWithVault());
});
afterAll(() => cleanup());

describe("oz0 inventory", () => {
  it("sets what an agent and a tool are for, and lists them", async () => {
    expect(
      (
        await run(
          "inventory",
          "set",
          "agent",
          "vault/keeper",
          "--purpose",
          "Opens doors.",
          "--owner",
          "facilities",
        )
      ).stdout,
    ).toBe("agent vault/keeper: Opens doors. (owner facilities)\n");
    expect((await run("inventory", "set", "tool", "vault/vault", "--purpose", "Door codes.")).stdout).toBe(
      "tool vault/vault: Door codes.\n",
    );
    expect((await run("inventory", "list")).stdout).toBe(
      [
        "KIND   ADDRESS       OWNER       PURPOSE",
        "agent  vault/keeper  facilities  Opens doors.",
        "tool   vault/vault               Door codes.",
        "",
      ].join("\n"),
    );
  });

  it("shows the purpose and owner in oz0 catalog", async () => {
    const catalog = await run("catalog");
    expect(catalog.stdout).toContain(
      "  vault/keeper  Writes one value, then answers. · purpose: Opens doors. (owner facilities)\n",
    );
    expect(catalog.stdout).toContain("vault/vault     A key-value vault. · purpose: Door codes.\n");
    expect((await run("catalog", "vault/keeper")).stdout).toBe(
      "vault/keeper (agent)\n  Writes one value, then answers.\n  purpose: Opens doors. (owner facilities)\n",
    );
    const json = (await run("catalog", "--json")).json<{ address: string; inventory?: unknown }[]>();
    expect(json.find((entry) => entry.address === "vault/keeper")?.inventory).toEqual({
      purpose: "Opens doors.",
      owner: "facilities",
    });
    expect(json.find((entry) => entry.address === "vault/twice")?.inventory).toBeUndefined();
  });

  it("refuses an address that names another plugin, with the owner, and a kind it does not know", async () => {
    const wrong = await run("inventory", "set", "tool", "keeper/vault", "--purpose", "x");
    expect(wrong.stderr).toBe("oz0: keeper/vault is not a tool of keeper: vault is vault's\n");
    const kind = await run("inventory", "set", "flow", "vault/keeper", "--purpose", "x");
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain("Allowed choices are agent, tool");
  });
});
