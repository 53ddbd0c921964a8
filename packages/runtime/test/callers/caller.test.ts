import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { hasRole, localAdmin, ROLES, requireRole } from "../../src/callers/index.js";

describe("a caller's role", () => {
  it("includes every role before it and none after", () => {
    const approver = { ...localAdmin("acme", "key:k1"), role: "approver" as const };
    expect(ROLES.filter((role) => hasRole(approver, role))).toEqual(["viewer", "runner", "approver"]);
  });

  it("is refused with FORBIDDEN naming who, what, and the role it needs", () => {
    const viewer = { ...localAdmin("acme", "key:k1"), role: "viewer" as const };
    let thrown: unknown;
    try {
      requireRole(viewer, "operator", "set a kill switch");
    } catch (error) {
      thrown = error;
    }
    expect(isOz0Error(thrown) && thrown.code).toBe("FORBIDDEN");
    expect((thrown as Error).message).toBe(
      "key:k1 may not set a kill switch in tenant acme: that needs the operator role (set policy, kill switches, inventory, plugin config and models), and key:k1 is a viewer.",
    );
  });

  it("lets the embedded CLI's local admin do everything, with every agent in scope", () => {
    const admin = localAdmin("default", "cli:alice");
    expect(() => requireRole(admin, "admin", "install a plugin")).not.toThrow();
    expect(admin.agents).toEqual(["*"]);
    expect(Object.isFrozen(admin)).toBe(true);
  });
});
