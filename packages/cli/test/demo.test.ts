import { describe, expect, it } from "vitest";
import { oz0 } from "./run-cli.js";

describe("oz0 demo", () => {
  it("lists the sample plugin's parts by address with the names a model sees, and calls a function", async () => {
    const result = await oz0(["demo", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = result.json<{
      agents: { address: string }[];
      functions: { address: string; modelName: string }[];
      call: { result: { id: number; queue: string | null } };
    }>();
    expect(report.agents.map((agent) => agent.address)).toEqual(["support-triage/triage"]);
    expect(report.functions).toContainEqual({
      address: "support-triage/tickets.lookup",
      modelName: "tickets__lookup",
    });
    expect(report.call.result).toMatchObject({ id: 7, queue: null });
  });

  it("fails with the loader's message and a non-zero exit code for a folder without plugin.yaml", async () => {
    const result = await oz0(["demo", "/nonexistent-plugin-folder"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: \/nonexistent-plugin-folder is not a plugin folder/);
  });
});
