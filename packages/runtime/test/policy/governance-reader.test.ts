// A tenant's governance as a job's steps read it: a step goes by the version its last write
// read, and takes the rules compiled at that version without a read or a wait of its own; any
// other version is read and compiled anew.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpGovernanceVersion, governanceOf } from "../../src/policy/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { TENANT } from "../jobs/helpers.js";

let store: Store;
beforeAll(async () => {
  store = await openStore({ memory: true });
});
afterAll(() => store.close());

describe("the governance reader", () => {
  it("knows a tenant's governance only at the version it compiled, and a rule set since only once read", async () => {
    const reader = governanceOf(store);
    const first = await reader.current(TENANT);
    expect(reader.known(TENANT, first.version)).toBe(first);
    expect(reader.known(TENANT, first.version + 1)).toBeUndefined();
    expect(reader.known("another", first.version)).toBeUndefined();
    await store.db
      .insertInto("policies")
      .values({ tenant: TENANT, pattern: "helpdesk/tickets.*", action: "deny", created_at: 1 })
      .execute();
    await bumpGovernanceVersion(store.db, TENANT);
    // The version moved: nothing compiled answers for it until it is read.
    expect(reader.known(TENANT, first.version + 1)).toBeUndefined();
    const next = await reader.current(TENANT);
    expect(next.version).toBe(first.version + 1);
    expect(reader.known(TENANT, next.version)).toBe(next);
    expect(reader.known(TENANT, first.version)).toBeUndefined();
    expect(
      next.policy.decide({ kind: "function", plugin: "helpdesk", tool: "tickets", function: "lookup" }),
    ).toEqual({ action: "deny", rule: "helpdesk/tickets.*" });
  });
});
