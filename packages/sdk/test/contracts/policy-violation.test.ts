import { describe, expect, test } from "vitest";
import { PolicyViolation } from "../../src/contracts/index.js";
import { isOz0Error, Oz0Error } from "../../src/errors/index.js";

describe("PolicyViolation", () => {
  test("is an Oz0Error with code POLICY_VIOLATION and the spec's fields", () => {
    const violation = new PolicyViolation("rate_limit", "Rate limit exceeded: 60/min", { current_count: 60 });
    expect(violation).toBeInstanceOf(Oz0Error);
    expect(isOz0Error(violation, "POLICY_VIOLATION")).toBe(true);
    expect(violation.name).toBe("PolicyViolation");
    expect(violation.contractId).toBe("rate_limit");
    expect(violation.reason).toBe("Rate limit exceeded: 60/min");
    expect(violation.details).toEqual({ current_count: 60 });
    expect(violation.data).toEqual({
      contractId: "rate_limit",
      reason: "Rate limit exceeded: 60/min",
      details: { current_count: 60 },
    });
  });

  test("takes the spec's keyword form as one object", () => {
    const violation = new PolicyViolation({ contractId: "budget", reason: "Token ceiling exceeded" });
    expect(violation.details).toEqual({});
    expect(violation.message).toBe("budget refused: Token ceiling exceeded");
    expect(violation.side).toBe("user");
  });
});
