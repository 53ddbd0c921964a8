// What StartJob asks of start(): the input checked before the job exists, and a start with an
// idempotency key that finds the job an earlier one made.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness, TENANT } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const count = async () => (await h.engine().search({ tenant: TENANT, limit: 1000 })).length;

describe("start with checkInput", () => {
  it("refuses input that does not match the agent's input_schema with INVALID_INPUT, and no job exists", async () => {
    const before = await count();
    await expect(
      h.engine().start({ tenant: TENANT, agent: "helpdesk/typed", input: { ticket: "x" }, checkInput: true }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", data: { issues: [{ path: "ticket" }] } });
    expect(await count()).toBe(before);
  });

  it("refuses an object given to an agent that takes text", async () => {
    await expect(
      h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: { a: 1 }, checkInput: true }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("starts the job when the input matches", async () => {
    const job = await h
      .engine()
      .start({ tenant: TENANT, agent: "helpdesk/typed", input: { ticket: 7 }, checkInput: true });
    expect(job.status).toBe("queued");
  });
});

describe("start with an idempotency key", () => {
  it("returns the first job for a second start with the same key and input", async () => {
    const first = await h
      .engine()
      .start({ tenant: TENANT, agent: "helpdesk/triage", input: "t", idempotencyKey: "a" });
    const again = await h
      .engine()
      .start({ tenant: TENANT, agent: "helpdesk/triage", input: "t", idempotencyKey: "a" });
    expect(again.id).toBe(first.id);
    expect(first.id.startsWith("triage-k")).toBe(true);
  });

  it("refuses a second start with the same key and other input with CONFLICT", async () => {
    await h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "one", idempotencyKey: "b" });
    await expect(
      h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "two", idempotencyKey: "b" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("starts one job when two starts with one key race", async () => {
    const starts = await Promise.all(
      [1, 2, 3].map(() =>
        h.engine().start({ tenant: TENANT, agent: "helpdesk/triage", input: "r", idempotencyKey: "c" }),
      ),
    );
    expect(new Set(starts.map((job) => job.id)).size).toBe(1);
  });
});
