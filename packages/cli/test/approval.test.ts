import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithVault } from "./governance-helpers.js";
import { THROUGH_SERVER } from "./run-cli.js";

let run: Awaited<ReturnType<typeof homeWithVault>>["run"];
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ run, cleanup } = await homeWithVault());
  await run("policy", "ask", "vault/vault.write");
});
afterAll(() => cleanup());

interface ApprovalShape {
  id: string;
  job: string;
  agent: string;
  address: string;
  args: unknown;
  status: string;
}

/** Starts a keeper job, which waits for an approval, and returns the approval. */
async function waitingJob(): Promise<ApprovalShape> {
  const ran = await run("run", "vault/keeper", "open it", "--json");
  expect(ran.code).toBe(2);
  const list = (await run("approval", "list", "--json")).json<ApprovalShape[]>();
  const approval = list.find((one) => one.job === ran.json<{ id: string }>().id);
  if (approval === undefined) throw new Error("no approval was asked for");
  return approval;
}

describe("oz0 approval", () => {
  it("says the job waits for a person, with the command that decides, and lists the pending call", async () => {
    const ran = await run("run", "vault/keeper", "open it");
    expect(ran.code).toBe(2);
    const id = /oz0 approval approve\|deny (apr-\w+)/.exec(ran.stderr)?.[1];
    expect(id).toBeDefined();
    expect(ran.stderr).toMatch(
      /approval {5}1\.1 vault\/vault\.write \{"key":"door","value":"open"\} asks a person/,
    );
    const list = await run("approval", "list");
    expect(list.stdout.split("\n")[0]).toMatch(/^ID +JOB +AGENT +FUNCTION +ARGUMENTS$/);
    expect(list.stdout).toMatch(
      new RegExp(`${id} +keeper-\\w+ +vault/keeper +vault/vault\\.write +\\{"key":"door","value":"open"\\}`),
    );
  });

  it("approves a call, runs the job on, and prints its answer", async () => {
    const approval = await waitingJob();
    const result = await run("approval", "approve", approval.id, "--reason", "fine");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("written\n");
    const trace = (await run("job", "trace", approval.job, "--json")).json<{ kind: string }[]>();
    expect(trace.map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(["approval_requested", "approval_decided", "tool_call", "job_succeeded"]),
    );
    const again = await run("approval", "approve", approval.id);
    expect(again.stdout).toMatch(/was already approved by cli:.+; nothing changed\n$/);
  });

  it("denies a call with a reason: the call never runs and the job goes on", async () => {
    const approval = await waitingJob();
    const result = await run("approval", "deny", approval.id, "--reason", "not today", "--json");
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ id: approval.job, status: "succeeded" });
    const trace = (await run("job", "trace", approval.job, "--json")).json<
      { kind: string; data: { error?: { code: string; message: string } } }[]
    >();
    const refused = trace.find((entry) => entry.kind === "tool_result");
    expect(refused?.data.error?.code).toBe("APPROVAL_DENIED");
    expect(refused?.data.error?.message).toMatch(
      /denied this call of vault\/vault\.write .*: not today; it did not run$/,
    );
  });

  it("a person's denial binds whatever the policy became since: policy remove, then deny, and the call never runs", async () => {
    const own = await homeWithVault();
    try {
      await own.run("policy", "ask", "vault/vault.write");
      const ran = await own.run("run", "vault/keeper", "open it", "--json");
      expect(ran.code).toBe(2);
      const [approval] = (await own.run("approval", "list", "--json")).json<ApprovalShape[]>();
      if (approval === undefined) throw new Error("no approval was asked for");
      expect((await own.run("policy", "remove", "vault/vault.write")).code).toBe(0);
      const denied = await own.run("approval", "deny", approval.id, "--reason", "not today", "--json");
      expect(denied.code).toBe(0);
      expect(denied.json()).toMatchObject({ id: approval.job, status: "succeeded" });
      const trace = (await own.run("job", "trace", approval.job, "--json")).json<
        { kind: string; data: { ok?: boolean; error?: { code: string }; decided?: unknown } }[]
      >();
      const results = trace.filter((entry) => entry.kind === "tool_result");
      expect(results.map((entry) => [entry.data.ok, entry.data.error?.code])).toEqual([
        [false, "APPROVAL_DENIED"],
      ]);
      const call = trace.find((entry) => entry.kind === "tool_call");
      expect(call?.data.decided).toEqual({ by: "approval", approval: approval.id });
      const text = await own.run("job", "trace", approval.job);
      expect(text.stdout).toMatch(
        new RegExp(`tool call {4}1\\.1 vault/vault\\.write .*· decided by approval ${approval.id}`),
      );
    } finally {
      await own.cleanup();
    }
  });

  it("decides without running the job on with --no-wait", async () => {
    const approval = await waitingJob();
    const result = await run("approval", "approve", approval.id, "--no-wait");
    expect(result.stdout).toMatch(
      new RegExp(
        `^approval ${approval.id} \\(vault/vault\\.write in job ${approval.job}\\) approved by cli:.+; the job is queued to go on\\n$`,
      ),
    );
    // The command does not run the job on; a worker does, and through a server its worker is live.
    const { status } = (await run("job", "get", approval.job, "--json")).json<{ status: string }>();
    if (THROUGH_SERVER) expect(status).not.toBe("waiting");
    else expect(status).toBe("queued");
  });

  it("refuses to deny an approved call, and an approval that does not exist", async () => {
    const approval = await waitingJob();
    await run("approval", "approve", approval.id, "--no-wait");
    const conflict = await run("approval", "deny", approval.id, "--json");
    expect(conflict.code).toBe(1);
    expect(JSON.parse(conflict.stderr).error.code).toBe("APPROVAL_STATE_CONFLICT");
    const missing = await run("approval", "approve", "apr-nothing");
    expect(missing.stderr).toBe(
      "oz0: there is no approval apr-nothing in tenant default; oz0 approval list shows the calls waiting for one.\n",
    );
  });
});
