// An update or remove that takes away an agent a job that has not ended runs as is refused,
// naming the jobs, unless forced with a reason; a job it strands anyway ends as part_removed
// when it next runs, saying which change took its agent.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ALICE, type Lab, lab, VAULT, VAULT_2 } from "../policy/helpers.js";
import { refusal } from "./helpers.js";

let l: Lab;
/** The vault plugin at 1.1.0 with its agent keeper renamed warden. */
let renamed: string;
/** The ledger-flows plugin at 1.0.1 with its flow guarded renamed guarded-read. */
let renamedFlow: string;
const LEDGER_FLOWS = fileURLToPath(new URL("../fixtures/flows/ledger-flows", import.meta.url));

beforeAll(async () => {
  l = await lab();
  const root = await mkdtemp(join(tmpdir(), "oz0-renamed-"));
  renamed = join(root, "vault");
  await cp(VAULT, renamed, { recursive: true });
  const manifest = join(renamed, "plugin.yaml");
  const text = await readFile(manifest, "utf8");
  await writeFile(
    manifest,
    text
      .replace("version: 1.0.0", "version: 1.1.0")
      .replace("name: keeper", "name: warden")
      .replace("allow: [keeper]", "allow: [warden]"),
  );
  renamedFlow = join(root, "ledger-flows");
  await cp(LEDGER_FLOWS, renamedFlow, { recursive: true });
  const flows = join(renamedFlow, "plugin.yaml");
  await writeFile(
    flows,
    (await readFile(flows, "utf8"))
      .replace("version: 1.0.0", "version: 1.0.1")
      .replace("name: guarded\n", "name: guarded-read\n"),
  );
  return async () => {
    await l.close();
    await rm(root, { recursive: true, force: true });
  };
});

/** A tenant with the vault plugin and a job of vault/keeper waiting for an approval. */
async function waitingKeeper(): Promise<{ tenant: string; job: string; approval: string }> {
  const tenant = await l.tenant();
  await l.runtime.policy.set(tenant, "ask", "vault/vault.write");
  const job = await l.run(tenant, "vault/keeper");
  expect(job.status).toBe("waiting");
  const [approval] = await l.runtime.approvals.list(tenant);
  return { tenant, job: job.id, approval: approval!.id };
}

describe("a change that takes away an agent a job still runs as", () => {
  it("refuses an update that renames the agent of a waiting job, naming the job, and changes nothing", async () => {
    const { tenant, job } = await waitingKeeper();
    const error = await refusal(l.runtime.catalog.update(tenant, renamed), "PART_IN_USE");
    expect(error.message).toBe(
      `cannot update vault from 1.0.0 to 1.1.0 in tenant ${tenant}: jobs that have not ended run as parts it would take away:\n` +
        `  - agent vault/keeper: job ${job} (waiting)\n` +
        "Do not rename a part in place: ship the new name beside the old one, and drop the old one in a later version, once its jobs have ended " +
        "(oz0 job search --agent vault/keeper --status running shows them); " +
        "or go ahead anyway with --force --reason TEXT, and those jobs fail (part_removed) when they next run.",
    );
    expect(error.data).toEqual({
      tenant,
      plugin: "vault",
      problems: [],
      jobs: [{ id: job, address: "vault/keeper", status: "waiting" }],
    });
    expect((await l.runtime.catalog.list(tenant)).map((plugin) => plugin.version)).toEqual(["1.0.0"]);
  });

  it("lets an update through that keeps every agent a job runs as", async () => {
    const { tenant } = await waitingKeeper();
    expect(await l.runtime.catalog.update(tenant, VAULT_2)).toMatchObject({
      version: "2.0.0",
      strandedJobs: [],
    });
  });

  it("goes ahead with --force and a reason; the stranded job then fails part_removed, not internal", async () => {
    const { tenant, job, approval } = await waitingKeeper();
    const report = await l.runtime.catalog.update(tenant, renamed, {
      force: true,
      reason: "keeper is warden now",
    });
    expect(report.strandedJobs).toEqual([
      { id: job, address: "vault/keeper", kind: "agent", status: "waiting" },
    ]);
    await l.runtime.approvals.approve(tenant, approval, ALICE);
    const ended = await l.runtime.jobs.run(job, { tenant });
    expect(ended.status).toBe("failed");
    expect(ended.failure).toEqual({
      kind: "part_removed",
      code: "NOT_FOUND",
      message:
        "agent vault/keeper was taken away, so this job cannot go on: plugin vault was updated from 1.0.0 to 1.1.0 " +
        "after the job started, and that version has no agent keeper (forced: keeper is warden now). " +
        "Start a new job of the part that replaced it.",
    });
  });

  it("refuses a remove while a job runs as one of the plugin's agents, and fails the job part_removed when forced", async () => {
    const { tenant, job, approval } = await waitingKeeper();
    const error = await refusal(l.runtime.catalog.remove(tenant, "vault"), "PART_IN_USE");
    expect(error.message).toContain(`  - agent vault/keeper: job ${job} (waiting)\n`);
    expect(error.message).toContain(
      "Let those jobs end, or cancel them (oz0 job cancel <id>), before removing the plugin",
    );
    await l.runtime.catalog.remove(tenant, "vault", { force: true, reason: "retired" });
    await l.runtime.approvals.approve(tenant, approval, ALICE);
    const ended = await l.runtime.jobs.run(job, { tenant });
    expect(ended.failure).toMatchObject({
      kind: "part_removed",
      message: `agent vault/keeper was taken away, so this job cannot go on: plugin vault 1.0.0 was removed from tenant ${tenant} after the job started (forced: retired). Install vault again to start a new job of it.`,
    });
  });

  it("refuses an update that renames the flow of a queued job; forced, the job fails part_removed", async () => {
    const tenant = await l.tenant(LEDGER_FLOWS);
    const { id } = await l.runtime.jobs.start({ tenant, agent: "ledger-flows/guarded", input: "x" });
    const error = await refusal(l.runtime.catalog.update(tenant, renamedFlow), "PART_IN_USE");
    expect(error.message).toContain(`  - flow ledger-flows/guarded: job ${id} (queued)\n`);
    await l.runtime.catalog.update(tenant, renamedFlow, { force: true, reason: "renamed" });
    const ended = await l.runtime.jobs.run(id, { tenant });
    expect(ended.failure).toEqual({
      kind: "part_removed",
      code: "NOT_FOUND",
      message:
        "flow ledger-flows/guarded was taken away, so this job cannot go on: plugin ledger-flows was updated from 1.0.0 to 1.0.1 " +
        "after the job started, and that version has no flow guarded (forced: renamed). Start a new job of the part that replaced it.",
    });
  });
});
