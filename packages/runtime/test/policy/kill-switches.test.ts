// Kill switches, on SQLite and PostgreSQL: a killed agent starts no job and its running jobs
// end at their next step; a killed tool's calls are refused at once, in running jobs too.
import { isOz0Error } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal, writePast } from "../catalog/helpers.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { ALICE, executionsOf, type Lab, lab, ofKind, results } from "./helpers.js";

const fixtures = engineFixtures().filter((fixture) => fixture.persistent);
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("kill switches on $label", (fixture) => {
  let l: Lab;
  beforeAll(async () => {
    l = await lab(await fixture.fresh());
    return () => l.close();
  });

  it("refuses to start a job of a killed agent, saying who stopped it and how to revive it", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    const error = await l.runtime.jobs
      .start({ tenant, agent: "vault/keeper", input: "go" })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "KILLED")).toBe(true);
    expect((error as Error).message).toBe(
      `agent vault/keeper is stopped by a kill switch by ${ALICE}, so it runs no job; oz0 revive agent vault/keeper lets it run again`,
    );
    expect(await l.runtime.jobs.search({ tenant })).toEqual([]);
  });

  it("lets a revived agent start jobs again", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    await l.runtime.killSwitches.revive(tenant, "agent", "vault/keeper");
    expect(await l.run(tenant, "vault/keeper")).toMatchObject({ status: "succeeded" });
  });

  it("ends a killed agent's running job at its next step, with the failure kind killed", async () => {
    const tenant = await l.tenant();
    const jobs = l.engine({
      id: "test:killed-midway",
      async generate() {
        // While the model thinks, an admin in another process pulls the switch.
        const other = await l.reopen();
        await other.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
        return {
          calls: [{ name: "vault__write", args: { key: "door", value: "open" } }],
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    });
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    expect(job.status).toBe("failed");
    expect(job.failure).toEqual({
      kind: "killed",
      code: "KILLED",
      message: `agent vault/keeper is stopped by a kill switch by ${ALICE}, so it runs no job; oz0 revive agent vault/keeper lets it run again`,
    });
    expect(executionsOf(job.id)).toEqual([]);
  });

  it("ends a killed agent's waiting job when it is woken", async () => {
    const tenant = await l.tenant();
    await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
    const job = await l.run(tenant, "vault/keeper");
    const [approval] = await l.runtime.approvals.list(tenant);
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    await l.runtime.approvals.approve(tenant, approval!.id, ALICE);
    expect(await l.runtime.jobs.run(job.id, { tenant: job.tenant })).toMatchObject({
      status: "failed",
      failure: { kind: "killed" },
    });
    expect(executionsOf(job.id)).toEqual([]);
  });

  it("refuses a killed tool's calls at once, in a running job too, and tells the model", async () => {
    const tenant = await l.tenant();
    const jobs = l.engine({
      id: "test:tool-killed-midway",
      async generate(request) {
        if (request.step === 2) {
          const other = await l.reopen();
          await other.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
        }
        return request.step <= 2
          ? {
              calls: [{ name: "vault__write", args: { key: `k${request.step}`, value: "v" } }],
              usage: { inputTokens: 1, outputTokens: 1 },
            }
          : { calls: [], text: "done", usage: { inputTokens: 1, outputTokens: 1 } };
      },
    });
    const job = await l.run(tenant, "vault/keeper", "go", jobs);
    expect(job.status).toBe("succeeded");
    expect(executionsOf(job.id).map((call) => call.args)).toEqual([{ key: "k1", value: "v" }]);
    const refused = ofKind(await l.events(job.id), "tool_result")[1]?.data;
    expect(refused).toMatchObject({ callId: "2.1", ok: false, error: { code: "KILLED" } });
    expect(refused?.error?.message).toBe(
      `vault/vault.write belongs to tool vault/vault, which is stopped by a kill switch by ${ALICE}, so the call did not run; do not call its functions again (oz0 revive tool vault/vault lets them run again)`,
    );
  });

  it("stops only the killed tool: another tool of the plugin still runs", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
    const job = await l.run(tenant, "vault/noter");
    expect(results(await l.events(job.id))).toEqual({
      "1.1": { ok: true },
      "2.1": { ok: false, code: "KILLED" },
    });
  });

  it("refuses a killed tool's calls by hand", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE);
    const report = await l.runtime.tools.call(tenant, "vault/vault.write", { key: "door", value: "open" });
    expect(report).toMatchObject({ ok: false, error: { code: "KILLED" } });
  });

  it("refuses a delegation to a killed agent: no child job starts", async () => {
    const tenant = await l.tenant();
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    const job = await l.run(tenant, "vault/boss");
    expect(job.status).toBe("succeeded");
    const refused = ofKind(await l.events(job.id), "tool_result")[0]?.data;
    expect(refused).toMatchObject({ ok: false, error: { code: "KILLED" } });
    expect(await l.runtime.jobs.search({ tenant, agent: "keeper" })).toEqual([]);
  });
});

describe("pulling and listing switches", () => {
  let l: Lab;
  beforeAll(async () => {
    l = await lab();
    return () => l.close();
  });

  it("refuses an address that names another plugin, with the owner the catalog knows", async () => {
    const tenant = await l.tenant();
    const agent = await l.runtime.killSwitches
      .kill(tenant, "agent", "audit/keeper", ALICE)
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(agent, "OWNER_MISMATCH")).toBe(true);
    expect((agent as Error).message).toBe("audit/keeper is not an agent of audit: keeper is vault's");
    const tool = await l.runtime.killSwitches
      .kill(tenant, "tool", "keeper/vault", ALICE)
      .catch((thrown: unknown) => thrown);
    expect((tool as Error).message).toBe("keeper/vault is not a tool of keeper: vault is vault's");
    expect(await l.runtime.killSwitches.list(tenant)).toEqual([]);
  });

  it("refuses a part that does not exist, and a function where a whole tool is meant", async () => {
    const tenant = await l.tenant();
    const missing = await l.runtime.killSwitches
      .kill(tenant, "agent", "vault/keepr", ALICE)
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(missing, "NOT_FOUND")).toBe(true);
    const fn = await l.runtime.killSwitches
      .kill(tenant, "tool", "vault/vault.write", ALICE)
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(fn, "INVALID_ADDRESS")).toBe(true);
  });

  it("lists the switches that are on, with who pulled them; pulling one twice changes nothing", async () => {
    const tenant = await l.tenant();
    expect(await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", ALICE)).toMatchObject({
      changed: true,
    });
    expect(await l.runtime.killSwitches.kill(tenant, "tool", "vault/vault", "bob")).toMatchObject({
      changed: false,
      switch: { by: ALICE },
    });
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", "bob");
    const list = await l.runtime.killSwitches.list(tenant);
    expect(list.map(({ kind, address, by }) => ({ kind, address, by }))).toEqual([
      { kind: "agent", address: "vault/keeper", by: "bob" },
      { kind: "tool", address: "vault/vault", by: ALICE },
    ]);
  });

  it("stops a clashing agent and tool by address during a name clash, and they stay stopped after it", async () => {
    const tenant = await l.tenant();
    await writePast(l.runtime.store.db, tenant, "vault-copy", [
      { kind: "agent", name: "keeper" },
      { kind: "tool", name: "vault" },
    ]);
    await refusal(l.runtime.catalog.resolvePart(tenant, "agent", "vault/keeper"), "NAME_CLASH");
    expect(await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE)).toMatchObject({
      changed: true,
      switch: { kind: "agent", address: "vault/keeper" },
    });
    expect(await l.runtime.killSwitches.kill(tenant, "tool", "vault-copy/vault", ALICE)).toMatchObject({
      changed: true,
      switch: { kind: "tool", address: "vault-copy/vault" },
    });
    // A bare name could mean either part: the refusal names the addresses that work.
    const bare = await refusal(l.runtime.killSwitches.kill(tenant, "agent", "keeper", ALICE), "NAME_CLASH");
    expect(bare.message).toBe(
      "plugins vault and vault-copy each define an agent or flow named keeper, so neither runs. " +
        "Remove one of the plugins, or update one to a version whose agent or flow has another name. " +
        "To stop one of them, name it by its address: vault/keeper or vault-copy/keeper.",
    );
    // A plugin outside the clash is still no owner of the name.
    await refusal(l.runtime.killSwitches.kill(tenant, "agent", "audit/keeper", ALICE), "NAME_CLASH");
    await l.runtime.catalog.remove(tenant, "vault-copy");
    const stopped = await l.runtime.jobs
      .start({ tenant, agent: "vault/keeper", input: "go" })
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(stopped, "KILLED")).toBe(true);
    expect(await l.runtime.killSwitches.revive(tenant, "agent", "vault/keeper")).toMatchObject({
      address: "vault/keeper",
    });
    expect((await l.runtime.killSwitches.list(tenant)).map((one) => one.address)).toEqual([
      "vault-copy/vault",
    ]);
  });

  it("refuses to revive what is not stopped, and revives a removed plugin's part by its address", async () => {
    const tenant = await l.tenant();
    const error = await l.runtime.killSwitches
      .revive(tenant, "agent", "vault/keeper")
      .catch((thrown: unknown) => thrown);
    expect(isOz0Error(error, "NOT_FOUND")).toBe(true);
    expect((error as Error).message).toBe(
      `agent vault/keeper is not stopped by a kill switch in tenant ${tenant}; oz0 kill list shows the switches that are on.`,
    );
    await l.runtime.killSwitches.kill(tenant, "agent", "vault/keeper", ALICE);
    await l.runtime.catalog.remove(tenant, "vault");
    expect(await l.runtime.killSwitches.revive(tenant, "agent", "vault/keeper")).toMatchObject({
      address: "vault/keeper",
    });
    expect(await l.runtime.killSwitches.list(tenant)).toEqual([]);
  });
});
