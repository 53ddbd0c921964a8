// The inventory: what each agent and tool is for and who answers for it, owner-checked.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, lab } from "./helpers.js";

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(() => l.close());

describe("the inventory", () => {
  it("sets an agent's or tool's purpose and owner, and lists them by address", async () => {
    const tenant = await l.tenant();
    await l.runtime.inventory.set(tenant, "tool", "vault/vault", { purpose: "Holds the door codes." });
    await l.runtime.inventory.set(tenant, "agent", "vault/keeper", {
      purpose: "Opens the door.",
      owner: "facilities",
    });
    const list = await l.runtime.inventory.list(tenant);
    expect(list.map(({ kind, address, purpose, owner }) => ({ kind, address, purpose, owner }))).toEqual([
      { kind: "agent", address: "vault/keeper", purpose: "Opens the door.", owner: "facilities" },
      { kind: "tool", address: "vault/vault", purpose: "Holds the door codes.", owner: null },
    ]);
  });

  it("keeps the owner when only the purpose changes, and clears it when given empty", async () => {
    const tenant = await l.tenant();
    await l.runtime.inventory.set(tenant, "agent", "vault/keeper", {
      purpose: "Opens.",
      owner: "facilities",
    });
    expect(
      await l.runtime.inventory.set(tenant, "agent", "vault/keeper", { purpose: "Opens and closes." }),
    ).toMatchObject({ purpose: "Opens and closes.", owner: "facilities" });
    expect(
      await l.runtime.inventory.set(tenant, "agent", "vault/keeper", { purpose: "Opens.", owner: "" }),
    ).toMatchObject({ owner: null });
  });

  it("refuses an address that names another plugin, with the owner the catalog knows", async () => {
    const tenant = await l.tenant();
    const error = await l.runtime.inventory
      .set(tenant, "agent", "audit/keeper", { purpose: "Opens." })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "OWNER_MISMATCH")).toBe(true);
    expect((error as Error).message).toBe("audit/keeper is not an agent of audit: keeper is vault's");
  });

  it("refuses an empty purpose and one too long", async () => {
    const tenant = await l.tenant();
    for (const purpose of ["  ", "x".repeat(501)]) {
      const error = await l.runtime.inventory
        .set(tenant, "tool", "vault/vault", { purpose })
        .catch((thrown: unknown) => thrown);
      expect(isOz0Error(error, "INVALID_INPUT")).toBe(true);
    }
    expect(await l.runtime.inventory.list(tenant)).toEqual([]);
  });
});
