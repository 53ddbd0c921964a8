import { describe, expect, test } from "vitest";
import {
  CapabilityContract,
  CONTRACT_TAXONOMY,
  GovernanceContract,
  OrchestrationContract,
} from "../../src/contracts/index.js";

const FAMILY_CLASSES = {
  capability: CapabilityContract,
  orchestration: OrchestrationContract,
  governance: GovernanceContract,
};

describe("the contract taxonomy", () => {
  test("has the spec's contract IDs, in its order", () => {
    expect(CONTRACT_TAXONOMY.map((row) => row.contractId)).toEqual([
      "tool",
      "prompt",
      "memory",
      "sensor",
      "session",
      "execution",
      "transport",
      "message",
      "recorder",
      "control",
      "shared_context",
      "delegation",
      "model_access",
      "context",
      "llm",
      "dp",
      "gateway",
      "surface",
      "workflow",
      "budget",
      "routing",
    ]);
  });

  test("names the spec's classes", () => {
    const names = CONTRACT_TAXONOMY.map((row) => row.className);
    for (const name of [
      "ExecutionSessionContract",
      "DesignPatternContract",
      "SurfaceAdapter",
      "WorkflowContract",
    ]) {
      expect(names).toContain(name);
    }
  });

  test("places each contract under its family class", () => {
    for (const row of CONTRACT_TAXONOMY) {
      expect(row.contract.prototype, row.className).toBeInstanceOf(FAMILY_CLASSES[row.family]);
    }
  });

  test("has family classes that implement no contract themselves", () => {
    for (const family of Object.values(FAMILY_CLASSES))
      expect(Object.hasOwn(family, "contractId")).toBe(false);
  });
});
