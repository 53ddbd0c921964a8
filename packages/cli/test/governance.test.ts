// The hook bus through the CLI: a tenant with a plugin whose handlers pass, refuse and fail,
// and `oz0 job trace` showing governance_checked, governance_denied and hook_error in order.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type RunShape } from "./jobs-helpers.js";
import { oz0, tempHome } from "./run-cli.js";

const AUDITOR = join(import.meta.dirname, "../../runtime/test/fixtures/hooks/auditor");

interface TraceEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

let home: string;
let cleanup: () => Promise<void>;
let job: RunShape;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  for (const dir of [join(FIXTURES, "helpdesk"), AUDITOR]) {
    const installed = await oz0(["plugin", "install", dir, "--home", home, "--tenant", "audited"]);
    if (installed.code !== 0) throw new Error(`installing ${dir} failed: ${installed.stderr}`);
  }
  job = (
    await oz0(["run", "helpdesk/triage", "ticket 7", "--json", "--home", home, "--tenant", "audited"])
  ).json();
});
afterAll(() => cleanup());

describe("oz0 job trace of a governed job", () => {
  it("prints governance_checked, governance_denied and hook_error with the spec's fields, in order", async () => {
    expect(job.status).toBe("succeeded");
    const trace = await oz0(["job", "trace", job.id, "--json", "--home", home, "--tenant", "audited"]);
    expect(trace.code).toBe(0);
    const events = trace.json<TraceEvent[]>();
    const governance = events.filter((entry) =>
      ["governance_checked", "governance_denied", "hook_error"].includes(entry.kind),
    );
    expect(governance[0]).toMatchObject({
      kind: "governance_checked",
      data: { hook: "pre_llm_call", checks_passed: 1, outcome: "allowed" },
    });
    expect(governance.find((entry) => entry.kind === "governance_denied")?.data).toEqual({
      hook: "pre_tool_call",
      plugin: "auditor",
      contract_id: "audit",
      reason: "Assigning needs a person",
      details: { function: "helpdesk/tickets.assign" },
      handler: "no-assign",
    });
    expect(governance.find((entry) => entry.kind === "hook_error")?.data).toEqual({
      hook: "post_tool_call",
      plugin: "auditor",
      error: "the audit log is unreachable",
      handler: "log",
      required: false,
    });
    // The refusal goes with the call's record, ahead of it, and its result follows.
    const denied = events.findIndex((entry) => entry.kind === "governance_denied");
    expect(events[denied + 1]).toMatchObject({ kind: "tool_call", data: { callId: "2.1" } });
    expect(events[denied + 2]).toMatchObject({
      kind: "tool_result",
      data: {
        ok: false,
        error: { code: "POLICY_VIOLATION", message: "audit refused: Assigning needs a person" },
      },
    });
    expect(events.map((entry) => entry.seq)).toEqual(events.map((_, index) => index + 1));
  });

  it("draws them as lines of the timeline", async () => {
    const trace = await oz0(["job", "trace", job.id, "--home", home, "--tenant", "audited"]);
    expect(trace.stdout).toContain("checked      pre_llm_call allowed · 1 passed");
    expect(trace.stdout).toContain(
      'denied       pre_tool_call by auditor (audit): Assigning needs a person {"function":"helpdesk/tickets.assign"}',
    );
    expect(trace.stdout).toContain(
      "hook error   post_tool_call in auditor/log: the audit log is unreachable",
    );
  });
});
