// Tool policy, approvals and kill switches on the hook bus: pre_approval may reword a request
// or refuse the call, on_kill_switch hears of every stop, and the platform's own refusals show
// in the trace as governance_denied, as a governance plugin's do.
import type { HookPayload } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, executionsOf, type Lab, lab, ofKind, planned, REVIEWERS } from "./helpers.js";

let l: Lab;
beforeAll(async () => {
  l = await lab();
});
afterAll(() => l.close());

function killNotes(): HookPayload<"on_kill_switch">[] {
  const global = globalThis as { __oz0KillSwitchNotes?: HookPayload<"on_kill_switch">[] };
  global.__oz0KillSwitchNotes ??= [];
  return global.__oz0KillSwitchNotes;
}

async function reviewedTenant(): Promise<string> {
  const tenant = await l.tenant();
  await l.runtime.catalog.install(tenant, REVIEWERS);
  return tenant;
}

describe("pre_approval", () => {
  it("fires before a request is written, and a handler rewords its summary and names its approvers", async () => {
    const tenant = await reviewedTenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    await l.run(tenant, "vault/keeper");
    const [approval] = await l.runtime.approvals.list(tenant);
    expect(approval).toMatchObject({
      summary: 'door door: vault/keeper calls vault/vault.write with {"key":"door","value":"open"}',
      approvers: ["facilities"],
    });
  });

  it("refuses the call when a handler raises PolicyViolation: nobody is asked and the call never runs", async () => {
    const tenant = await reviewedTenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const jobs = l.engine(
      planned([
        { calls: [{ name: "vault__write", args: { key: "vault-room", value: "open" } }] },
        { text: "no" },
      ]),
    );
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    expect(job.status).toBe("succeeded");
    expect(await l.runtime.approvals.list(tenant, { status: "all" })).toEqual([]);
    expect(executionsOf(job.id)).toEqual([]);
    const events = await l.events(job.id);
    expect(ofKind(events, "governance_denied")[0]?.data).toMatchObject({
      hook: "pre_approval",
      plugin: "reviewers",
      contract_id: "review",
      reason: "the vault room is never opened",
    });
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: { code: "POLICY_VIOLATION" },
    });
  });
});

describe("on_kill_switch", () => {
  it("hears of a kill switch refusing a call and ending an agent's job", async () => {
    const tenant = await reviewedTenant();
    await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
    const refused = await l.run(tenant, "vault/keeper");
    await l.runtime.killSwitches.revive(tenant, "tool", "vault/vault");
    const queued = await l.runtime.jobs.start({ tenant, agent: "vault/keeper", input: "go" });
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    const ended = await l.runtime.jobs.run(queued.id, { tenant: queued.tenant });
    expect(ended.failure?.kind).toBe("killed");
    const notes = killNotes().filter((note) => note.tenant === tenant);
    expect(notes.map((note) => [note.jobId, note.switch])).toEqual([
      [refused.id, { kind: "tool", address: "vault/vault" }],
      [queued.id, { kind: "agent", address: "vault/keeper" }],
    ]);
  });
});

describe("governance_denied", () => {
  it("records a deny rule's refusal on pre_tool_call, with the rule", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "deny", "vault/vault.*");
    const job = await l.run(tenant, "vault/keeper");
    expect(ofKind(await l.events(job.id), "governance_denied")[0]?.data).toEqual({
      hook: "pre_tool_call",
      plugin: "oz0",
      contract_id: "tool-policy",
      reason:
        "the tenant's tool policy denies vault/vault.write (rule: deny vault/vault.*), so the call did not run",
      details: { address: "vault/vault.write", rule: "vault/vault.*", action: "deny" },
      handler: "tool-policy",
    });
  });

  it("records a kill switch's refusal on pre_tool_call, with the switch", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
    const job = await l.run(tenant, "vault/keeper");
    expect(ofKind(await l.events(job.id), "governance_denied")[0]?.data).toMatchObject({
      hook: "pre_tool_call",
      contract_id: "kill-switch",
      details: { kind: "tool", address: "vault/vault" },
    });
  });
});
