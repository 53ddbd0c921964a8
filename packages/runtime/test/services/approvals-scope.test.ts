// An approval of a job whose agent is outside the caller's scope is answered as one that does
// not exist, and approval lists leave it out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import type { ApprovalView } from "../../src/policy/index.js";
import { type Lab, lab } from "../policy/helpers.js";

let l: Lab;
let tenant: string;
let approval: ApprovalView;

beforeAll(async () => {
  l = await lab();
  tenant = await l.tenant();
  await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
  await l.run(tenant, "vault/keeper");
  [approval] = (await l.runtime.approvals.list(tenant)) as [ApprovalView];
});
afterAll(() => l.close());

async function answer(work: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await work };
  } catch (error) {
    const { code, message, data } = error as { code: string; message: string; data: unknown };
    return { code, message, data };
  }
}

describe("approvals for a caller limited to some agents", () => {
  it("leave out the approvals of jobs outside its scope, and list those within it", async () => {
    const outside: Caller = { tenant, actor: "key:ops", role: "approver", agents: ["tag:ops"] };
    const inside: Caller = { ...outside, agents: ["vault/keeper"] };
    expect(await l.runtime.services.approvals.list(outside)).toEqual([]);
    expect((await l.runtime.services.approvals.list(inside)).map((one) => one.id)).toEqual([approval.id]);
  });

  it("answer a decision on an approval outside its scope exactly as one on an approval that does not exist", async () => {
    const outside: Caller = { tenant, actor: "key:ops", role: "approver", agents: ["tag:ops"] };
    const refused = await answer(l.runtime.services.approvals.approve(outside, approval.id));
    // The same ID asked of a tenant that has no such approval.
    const other = await l.tenant();
    const missing = await answer(
      l.runtime.services.approvals.approve({ ...outside, tenant: other }, approval.id),
    );
    expect(refused).toMatchObject({ code: "NOT_FOUND" });
    expect(refused).toEqual(JSON.parse(JSON.stringify(missing).replaceAll(other, tenant)));
    // Nothing was decided.
    expect(await l.runtime.approvals.get(tenant, approval.id)).toMatchObject({ status: "pending" });
    const admin = localAdmin(tenant, "cli:alice");
    expect(await l.runtime.services.approvals.deny(admin, approval.id)).toMatchObject({ changed: true });
  });
});
