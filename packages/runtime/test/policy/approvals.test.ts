// ask rules and approvals, on SQLite and PostgreSQL: a held call waits in the store for a
// person, runs once when approved, never when denied, and an approval fits its one call only.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_TRANSITIONS, moveApproval } from "../../src/policy/approval-rows.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { ALICE, executionsOf, kinds, type Lab, lab, ofKind, planned, results, VAULT_2 } from "./helpers.js";

const REWRITER = fileURLToPath(new URL("../fixtures/policy/rewriter", import.meta.url));

const fixtures = engineFixtures().filter((fixture) => fixture.persistent);
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("approvals on $label", (fixture) => {
  let l: Lab;
  beforeAll(async () => {
    l = await lab(await fixture.fresh());
    return () => l.close();
  });

  /** A tenant with an ask rule on vault.write and a keeper job waiting for its approval. */
  async function held(agent = "vault/keeper") {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const job = await l.run(tenant, agent);
    const [approval] = await l.runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    return { tenant, job, approval };
  }

  it("puts the job to waiting, and the approval list shows the call's job, agent, function and arguments", async () => {
    const { tenant, job, approval } = await held();
    expect(job).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "approval", callId: "1.1", approval: approval.id },
    });
    expect(approval).toMatchObject({
      tenant,
      job: job.id,
      agent: "vault/keeper",
      callId: "1.1",
      address: "vault/vault.write",
      args: { key: "door", value: "open" },
      rule: "vault/vault.write",
      status: "pending",
      decidedBy: null,
      usedAt: null,
    });
    const events = await l.events(job.id);
    expect(ofKind(events, "approval_requested")[0]?.data).toEqual({
      approval: approval.id,
      callId: "1.1",
      address: "vault/vault.write",
      name: "vault__write",
      args: { key: "door", value: "open" },
      rule: "vault/vault.write",
    });
    // The call has not started: no tool_call until a person approves.
    expect(kinds(events)).not.toContain("tool_call");
    expect(executionsOf(job.id)).toEqual([]);
  });

  it("refuses an approved call whose arguments a pre_tool_call hook rewrote after approval, and never runs it", async () => {
    const tenant = await l.tenant();
    await l.runtime.catalog.install(tenant, REWRITER);
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const job = await l.run(tenant, "vault/keeper");
    const [approval] = await l.runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    expect(approval.args).toEqual({ key: "door", value: "open" });
    await l.runtime.approvals.approve(tenant, approval.id, ALICE, "open is fine");
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    const refused = ofKind(await l.events(job.id), "tool_result")[0]?.data as {
      ok: boolean;
      error?: { code: string; message: string };
    };
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe("APPROVAL_STATE_CONFLICT");
    expect(refused.error?.message).toContain("a pre_tool_call hook changed it after approval");
  });

  it("binds an approved call to its arguments whatever the policy became since: a hook's rewrite is refused", async () => {
    const tenant = await l.tenant();
    await l.runtime.catalog.install(tenant, REWRITER);
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const job = await l.run(tenant, "vault/keeper");
    const [approval] = await l.runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    await l.runtime.policy.remove(tenant, "vault/vault.write");
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    expect(results(await l.events(job.id))).toEqual({
      "1.1": { ok: false, code: "APPROVAL_STATE_CONFLICT" },
    });
  });

  it("runs the approved call once and goes on, with approval_decided in the history", async () => {
    const { tenant, job, approval } = await held();
    const decided = await l.runtime.approvals.approve(tenant, approval.id, ALICE, "looks right");
    expect(decided).toMatchObject({ changed: true, queued: true, approval: { status: "approved" } });
    const done = await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(done).toMatchObject({ status: "succeeded", output: "written" });
    expect(executionsOf(job.id)).toHaveLength(1);
    const events = await l.events(job.id);
    const order = kinds(events).filter((kind) =>
      ["approval_requested", "job_waiting", "approval_decided", "tool_call", "tool_result"].includes(kind),
    );
    expect(order).toEqual([
      "approval_requested",
      "job_waiting",
      "approval_decided",
      "tool_call",
      "tool_result",
    ]);
    expect(ofKind(events, "approval_decided")[0]?.data).toEqual({
      approval: approval.id,
      callId: "1.1",
      decision: "approved",
      by: ALICE,
      reason: "looks right",
    });
    expect(ofKind(events, "tool_call")[0]?.data).toMatchObject({ attempt: 1 });
    expect(await l.runtime.approvals.list(tenant)).toEqual([]);
    expect((await l.runtime.approvals.get(tenant, approval.id)).usedAt).not.toBeNull();
  });

  it("runs a call approved twice only once", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    const again = await l.runtime.approvals.approve(tenant, approval.id, "bob");
    expect(again).toMatchObject({ changed: false, queued: false, approval: { decidedBy: ALICE } });
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toHaveLength(1);
    expect(ofKind(await l.events(job.id), "approval_decided")).toHaveLength(1);
  });

  it("never runs a denied call, and tells the model it was denied, with the reason", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.approvals.deny(tenant, approval.id, ALICE, "not this door");
    const done = await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(done).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toEqual([]);
    const result = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(result).toMatchObject({ callId: "1.1", ok: false, error: { code: "APPROVAL_DENIED" } });
    expect(result?.error?.message).toBe(
      `${ALICE} denied this call of vault/vault.write (approval ${approval.id}): not this door; it did not run`,
    );
  });

  it("passes a decision's reason, which the model is told, through user_input: rewritten, or refused with the approval left pending", async () => {
    const { tenant, job, approval } = await held();
    const dir = await mkdtemp(join(tmpdir(), "oz0-reason-hooks-"));
    await writeFile(
      join(dir, "plugin.yaml"),
      "name: reasons\nversion: 1.0.0\ndescription: Checks what people type.\nmain: index.js\ncapabilities: [hook]\n",
    );
    await writeFile(
      join(dir, "index.js"),
      `export default {
  setup(host) {
    host.addHook({
      name: "reasons",
      build: () => ({
        user_input: (p) => {
          if (p.content.includes("password")) {
            throw Object.assign(new Error("no passwords"), { code: "POLICY_VIOLATION", contractId: "dlp", reason: "no passwords", details: {} });
          }
          return { content: p.content.toUpperCase() };
        },
      }),
    });
  },
};
`,
    );
    await l.runtime.catalog.install(tenant, dir);
    const refused = await l.runtime.approvals
      .deny(tenant, approval.id, ALICE, "the password is hunter2")
      .catch((error) => error);
    expect(isOz0Error(refused, "POLICY_VIOLATION")).toBe(true);
    expect((await l.runtime.approvals.get(tenant, approval.id)).status).toBe("pending");
    // The refusal is recorded in the job's history, as a refused answer's is.
    expect(
      ofKind(await l.events(job.id), "governance_denied").map((entry) => [
        entry.data.hook,
        entry.data.reason,
      ]),
    ).toEqual([["user_input", "no passwords"]]);
    await l.runtime.approvals.deny(tenant, approval.id, ALICE, "not this door");
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    const events = await l.events(job.id);
    expect(ofKind(events, "approval_decided")[0]?.data).toMatchObject({ reason: "NOT THIS DOOR" });
    expect(ofKind(events, "tool_result")[0]?.data.error?.message).toContain(
      ": NOT THIS DOOR; it did not run",
    );
  });

  it("keeps a decision: denying an approved call is refused", async () => {
    const { tenant, approval } = await held();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    const error = await l.runtime.approvals
      .deny(tenant, approval.id, "mallory")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "APPROVAL_STATE_CONFLICT")).toBe(true);
    expect((error as Error).message).toBe(
      `approval ${approval.id} was already approved by ${ALICE}; a decision stands once made.`,
    );
  });

  it("approves one call only: a later call with the same arguments asks again", async () => {
    const { tenant, job, approval } = await held("vault/twice");
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    const second = await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(second).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "2.1" } });
    expect(executionsOf(job.id)).toHaveLength(1);
    const [next] = await l.runtime.approvals.list(tenant);
    expect(next).toMatchObject({ callId: "2.1", args: { key: "door", value: "open" } });
    expect(next?.id).not.toBe(approval.id);
  });

  it("decides several pending calls of one job each on its own", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const jobs = l.engine(
      planned([
        {
          calls: [
            { name: "vault__write", args: { key: "a", value: "1" } },
            { name: "vault__write", args: { key: "b", value: "2" } },
            { name: "vault__write", args: { key: "c", value: "3" } },
          ],
        },
        { text: "done" },
      ]),
    );
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    const pending = await l.runtime.approvals.list(tenant);
    expect(pending.map((one) => [one.callId, one.args])).toEqual([
      ["1.1", { key: "a", value: "1" }],
      ["1.2", { key: "b", value: "2" }],
      ["1.3", { key: "c", value: "3" }],
    ]);
    const [a, b, c] = pending;
    // The job waits for 1.1: deciding 1.2 leaves it waiting.
    expect(await l.runtime.approvals.deny(tenant, b!.id, ALICE, "not b")).toMatchObject({ queued: false });
    expect((await l.runtime.jobs.get(job.id, job.tenant)).status).toBe("waiting");
    await l.runtime.approvals.approve(tenant, a!.id, ALICE);
    const afterA = await jobs.run(job.id, { tenant: job.tenant });
    expect(afterA).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "1.3" } });
    await l.runtime.approvals.approve(tenant, c!.id, ALICE);
    expect(await jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id).map((call) => call.args)).toEqual([
      { key: "a", value: "1" },
      { key: "c", value: "3" },
    ]);
    expect(results(await l.events(job.id))).toEqual({
      "1.1": { ok: true },
      "1.2": { ok: false, code: "APPROVAL_DENIED" },
      "1.3": { ok: true },
    });
    expect(ofKind(await l.events(job.id), "approval_decided")).toHaveLength(3);
  });

  it("records a decision made while the job is queued when the job reaches the call", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const jobs = l.engine(
      planned([
        {
          calls: [
            { name: "vault__write", args: { key: "a", value: "1" } },
            { name: "vault__write", args: { key: "b", value: "2" } },
          ],
        },
        { text: "done" },
      ]),
    );
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    const [a, b] = await l.runtime.approvals.list(tenant);
    await l.runtime.approvals.approve(tenant, a!.id, ALICE);
    // Queued now, not yet run: the second decision waits for the job to take it up.
    await l.runtime.approvals.approve(tenant, b!.id, ALICE);
    expect(await jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toHaveLength(2);
    const decided = ofKind(await l.events(job.id), "approval_decided").map((entry) => entry.data.callId);
    expect(decided).toEqual(["1.1", "1.2"]);
  });

  it("checks the tool policy again right before the approved call runs", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    expect(results(await l.events(job.id))).toEqual({ "1.1": { ok: false, code: "POLICY_VIOLATION" } });
  });

  it("a person's denial binds whatever the policy became since: a denied call never runs", async () => {
    for (const change of ["remove", "allow"] as const) {
      const { tenant, job, approval } = await held();
      if (change === "remove") await l.runtime.policy.remove(tenant, "vault/vault.write");
      else await l.runtime.policy.set(tenant, "allow", "vault/vault.write");
      await l.runtime.approvals.deny(tenant, approval.id, ALICE, "not this door");
      expect(await l.runtime.jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
      expect(executionsOf(job.id)).toEqual([]);
      const events = await l.events(job.id);
      expect(results(events)).toEqual({ "1.1": { ok: false, code: "APPROVAL_DENIED" } });
      // The trace says the person's decision, not the policy of now, decided the call.
      expect(ofKind(events, "tool_call")[0]?.data.decided).toEqual({ by: "approval", approval: approval.id });
    }
  });

  it("a person's approval binds whatever the policy became since: the approved call runs once", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.policy.remove(tenant, "vault/vault.write");
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    expect(await l.runtime.jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toHaveLength(1);
    const events = await l.events(job.id);
    expect(ofKind(events, "tool_call")[0]?.data.decided).toEqual({ by: "approval", approval: approval.id });
    expect((await l.runtime.approvals.get(tenant, approval.id)).usedAt).not.toBeNull();
  });

  it("a call asked about waits for its person whatever the policy became since", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const jobs = l.engine(
      planned([
        {
          calls: [
            { name: "vault__write", args: { key: "a", value: "1" } },
            { name: "vault__write", args: { key: "b", value: "2" } },
          ],
        },
        { text: "done" },
      ]),
    );
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    const [a, b] = await l.runtime.approvals.list(tenant);
    await l.runtime.policy.remove(tenant, "vault/vault.write");
    await l.runtime.approvals.approve(tenant, a!.id, ALICE);
    expect(await jobs.run(job.id, { tenant: job.tenant })).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "approval", callId: "1.2", approval: b!.id },
    });
    expect(executionsOf(job.id).map((call) => call.args)).toEqual([{ key: "a", value: "1" }]);
    await l.runtime.approvals.deny(tenant, b!.id, ALICE);
    expect(await jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toHaveLength(1);
  });

  it("a deny rule added after the approval stops the approved call, and the trace says the policy decided", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.policy.set(tenant, "deny", "vault/vault.write");
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    const events = await l.events(job.id);
    expect(ofKind(events, "tool_call")[0]?.data.decided).toEqual({
      by: "tool-policy",
      approval: approval.id,
    });
    expect(ofKind(events, "approval_decided")).toHaveLength(1);
  });

  it("checks the kill switches again right before the approved call runs", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    expect(results(await l.events(job.id))).toEqual({ "1.1": { ok: false, code: "KILLED" } });
  });

  it("survives a restart: a fresh runtime on the same store lists, decides and runs the call", async () => {
    const { tenant, job, approval } = await held();
    const later = await l.reopen();
    expect((await later.approvals.list(tenant)).map((one) => one.id)).toEqual([approval.id]);
    await later.approvals.approve(tenant, approval.id, ALICE);
    const again = await l.reopen();
    expect(await again.jobs.run(job.id, { tenant: job.tenant })).toMatchObject({ status: "succeeded" });
    expect(executionsOf(job.id)).toHaveLength(1);
  });

  it("refuses an approved call whose arguments changed after the approval was asked for", async () => {
    const { tenant, job, approval } = await held();
    // Someone rewrites the recorded model reply so the call asks for another door.
    const rows = await l.runtime.store.db
      .selectFrom("job_events")
      .select(["seq", "data"])
      .where("job_id", "=", job.id)
      .where("kind", "=", "model_call")
      .execute();
    const reply = rows[0]!;
    await l.runtime.store.db
      .updateTable("job_events")
      .set({ data: reply.data.replace('"door"', '"vault-room"') })
      .where("job_id", "=", job.id)
      .where("seq", "=", reply.seq)
      .execute();
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await l.runtime.jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    const result = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(result?.error).toEqual({
      code: "APPROVAL_STATE_CONFLICT",
      message: `approval ${approval.id} does not fit this call of vault/vault.write: the call's arguments are not the ones approved, so the call did not run; call the function again to ask for a new approval`,
    });
  });

  it("refuses an approved call whose function's definition changed after the approval was asked for", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.catalog.update(tenant, VAULT_2);
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    await (await l.reopen()).jobs.run(job.id, { tenant: job.tenant });
    expect(executionsOf(job.id)).toEqual([]);
    const result = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(result?.error?.code).toBe("APPROVAL_STATE_CONFLICT");
    expect(result?.error?.message).toContain(
      "the definition of vault/vault.write (its description or input schema) changed after the call asked",
    );
  });

  it("lets a replayed approval of another call through for nothing", async () => {
    const first = await held();
    await l.runtime.approvals.approve(first.tenant, first.approval.id, ALICE);
    await l.runtime.jobs.run(first.job.id, { tenant: first.job.tenant });
    // A second job of the same agent asks the same call; someone copies the first approval onto it.
    const second = await l.run(first.tenant, "vault/keeper");
    const [pending] = await l.runtime.approvals.list(first.tenant);
    const original = await l.runtime.store.db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", first.approval.id)
      .executeTakeFirstOrThrow();
    await l.runtime.store.db
      .updateTable("approvals")
      .set({
        status: "approved",
        decided_by: ALICE,
        binding: original.binding,
        request: original.request,
        recorded: 1,
      })
      .where("id", "=", pending!.id)
      .execute();
    await l.runtime.store.db
      .updateTable("jobs")
      .set({ status: "queued", waiting_for: null })
      .where("id", "=", second.id)
      .execute();
    await l.runtime.jobs.run(second.id, { tenant: second.tenant });
    expect(executionsOf(second.id)).toEqual([]);
    const result = ofKind(await l.events(second.id), "tool_result")[0]?.data;
    expect(result?.error?.code).toBe("APPROVAL_STATE_CONFLICT");
    expect(result?.error?.message).toContain("it was made for another call");
  });

  it("refuses a decision on an approval whose job has ended, and lists it no more", async () => {
    const { tenant, job, approval } = await held();
    await l.runtime.jobs.cancel(job.id, ALICE, { tenant });
    expect(await l.runtime.approvals.list(tenant)).toEqual([]);
    const error = await l.runtime.approvals
      .approve(tenant, approval.id, ALICE)
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "APPROVAL_STATE_CONFLICT")).toBe(true);
    expect((error as Error).message).toBe(
      `approval ${approval.id} is for job ${job.id}, which has ended (cancelled); there is no call left to decide.`,
    );
  });

  it.each(
    (["approved", "denied", "withdrawn"] as const).flatMap((from) =>
      (["approved", "denied", "withdrawn"] as const).map((to) => [from, to] as const),
    ),
  )("moves no %s approval to %s: a decided or withdrawn approval stays as it is", async (from, to) => {
    const { approval } = await held();
    const { db } = l.runtime.store;
    const now = await l.runtime.store.now();
    expect(await moveApproval(db, approval.id, from, { at: now, by: "first" })).toBe(true);
    expect(APPROVAL_TRANSITIONS[from]).toEqual([]);
    expect(await moveApproval(db, approval.id, to, { at: now + 1, by: "second" })).toBe(false);
    const row = await db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", approval.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: from, decided_by: "first", decided_at: now });
  });

  it("finds no approval of another tenant, nor one that does not exist", async () => {
    const { approval } = await held();
    const other = await l.tenant();
    for (const [tenant, id] of [
      [other, approval.id],
      [other, "apr-nothing"],
    ] as const) {
      const error = await l.runtime.approvals.approve(tenant, id, ALICE).catch((thrown: unknown) => thrown);
      expect(isOz0Error(error, "NOT_FOUND")).toBe(true);
      expect((error as Error).message).toBe(
        `there is no approval ${id} in tenant ${tenant}; oz0 approval list shows the calls waiting for one.`,
      );
    }
  });
});
