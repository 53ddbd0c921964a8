// A caller limited to some agents learns nothing about the others: an agent, or a job of an
// agent, outside its scope is answered exactly as one that does not exist (same code, message
// and data), and lists leave them out. Two runtimes with the same tenant: in `here` the hr
// agents and their jobs exist, in `nowhere` the plugin was never installed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import type { Services } from "../../src/services/index.js";

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");

let home: string;
let here: Runtime;
let nowhere: Runtime;
/** A queued job of scoped/payroll (tagged hr) in `here`. */
let payrollJob: string;
let deployJob: string;

const admin = localAdmin("default", "cli:admin");
const ops: Caller = { tenant: "default", actor: "key:ops", role: "operator", agents: ["tag:ops"] };

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-scope-"));
  here = await Runtime.open({ home: join(home, "a"), memory: true, defaultPlugins: [] });
  nowhere = await Runtime.open({ home: join(home, "b"), memory: true, defaultPlugins: [] });
  await here.services.plugins.install(admin, SCOPED);
  payrollJob = (await here.services.jobs.start(admin, { agent: "scoped/payroll", input: "march" })).id;
  deployJob = (await here.services.jobs.start(admin, { agent: "scoped/deploy", input: "v2" })).id;
});
afterAll(async () => {
  await here.close();
  await nowhere.close();
  await rm(home, { recursive: true, force: true });
});

/** What `work` answers, as a surface would print it: the error's code, message and data, or the value. */
async function answer(work: (services: Services) => Promise<unknown>, runtime: Runtime): Promise<unknown> {
  try {
    return { value: await work(runtime.services) };
  } catch (error) {
    const { code, message, data } = error as { code: string; message: string; data: unknown };
    return { code, message, data };
  }
}

/** The answers for an out-of-scope part in `here` and a missing one in `nowhere`, which must be equal. */
async function bothAnswers(work: (services: Services) => Promise<unknown>) {
  return [await answer(work, here), await answer(work, nowhere)] as const;
}

describe("a caller limited to some agents", () => {
  const jobOperations: [string, (services: Services, id: string) => Promise<unknown>][] = [
    ["jobs.get", (s, id) => s.jobs.get(ops, id)],
    ["jobs.events", (s, id) => s.jobs.events(ops, id)],
    ["jobs.eventPage", (s, id) => s.jobs.eventPage(ops, id)],
    ["jobs.follow", (s, id) => s.jobs.follow(ops, id)],
    ["jobs.card", (s, id) => s.jobs.card(ops, id)],
    ["jobs.answerCard", (s, id) => s.jobs.answerCard(ops, id)],
    ["jobs.cancel", (s, id) => s.jobs.cancel(ops, id)],
    ["jobs.answer", (s, id) => s.jobs.answer(ops, id, "yes")],
    ["jobs.run", (s, id) => s.jobs.run(ops, id)],
    ["jobs.runOn", (s, id) => s.jobs.runOn(ops, id)],
    ["jobs.resume", (s, id) => s.jobs.resume(ops, id)],
    ["chat.say", (s, id) => s.chat.say(ops, { agent: "scoped/payroll", job: id, text: "hi" })],
    ["chat.end", (s, id) => s.chat.end(ops, id)],
  ];
  for (const [name, operation] of jobOperations) {
    it(`gets from ${name} on a job of an agent outside its scope exactly the answer for a job that does not exist`, async () => {
      const [outside, missing] = await bothAnswers((s) => operation(s, payrollJob));
      expect(outside).toMatchObject({ code: "NOT_FOUND" });
      expect(outside).toEqual(missing);
    });
  }

  it("leaves the job it may not see as it was", async () => {
    expect(await here.services.jobs.get(admin, payrollJob)).toMatchObject({ status: "queued" });
  });

  const agentOperations: [string, (services: Services) => Promise<unknown>][] = [
    ["jobs.start", (s) => s.jobs.start(ops, { agent: "scoped/payroll", input: "x" })],
    ["jobs.start by bare name", (s) => s.jobs.start(ops, { agent: "payroll", input: "x" })],
    ["chat.open", (s) => s.chat.open(ops, "scoped/payroll")],
    ["chat.say", (s) => s.chat.say(ops, { agent: "scoped/payroll", text: "hi" })],
    ["catalog.lookup", (s) => s.catalog.lookup(ops, "scoped/payroll")],
    ["catalog.lookup of a kind", (s) => s.catalog.lookup(ops, "scoped/payroll", { kind: "agent" })],
    ["catalog.agent", (s) => s.catalog.agent(ops, "scoped/payroll")],
    ["catalog.flow", (s) => s.catalog.flow(ops, "scoped/payrun")],
    ["killSwitches.kill", (s) => s.killSwitches.kill(ops, "agent", "scoped/payroll")],
    ["killSwitches.revive", (s) => s.killSwitches.revive(ops, "agent", "scoped/payroll")],
    ["inventory.set", (s) => s.inventory.set(ops, "agent", "scoped/payroll", { purpose: "pay" })],
    ["mcp.serve", (s) => s.mcp.serve(ops, { agent: "scoped/payroll" })],
    ["jobs.search --agent", (s) => s.jobs.search(ops, { agent: "scoped/payroll" })],
    // A near miss gets no "did you mean" naming the agent it may not see.
    ["jobs.start of a near name", (s) => s.jobs.start(ops, { agent: "scoped/payrol", input: "x" })],
  ];
  for (const [name, operation] of agentOperations) {
    it(`gets from ${name} on an agent outside its scope exactly the answer for an agent that does not exist`, async () => {
      const [outside, missing] = await bothAnswers(operation);
      expect(outside).toEqual(missing);
      expect(JSON.stringify(outside)).not.toContain("did you mean");
    });
  }

  it("finds only the jobs of its agents in a search", async () => {
    const found = await here.services.jobs.search(ops);
    expect(found.map((job) => job.id)).toEqual([deployJob]);
    expect((await here.services.jobs.search(admin)).map((job) => job.id).sort()).toEqual(
      [deployJob, payrollJob].sort(),
    );
  });

  it("sees only its agents in the catalog and a plugin's inspection", async () => {
    const agents = (await here.services.catalog.entries(ops)).filter((entry) => entry.kind === "agent");
    expect(agents.map((entry) => entry.address)).toEqual(["scoped/deploy"]);
    const detail = await here.services.plugins.inspect(ops, "scoped");
    expect(detail.agents.map((agent) => agent.address)).toEqual(["scoped/deploy"]);
    const [listed] = await here.services.plugins.list(ops);
    expect(listed?.parts).toMatchObject({ agent: 1, flow: 0 });
    expect((await here.services.plugins.list(admin))[0]?.parts).toMatchObject({ agent: 3 });
  });

  it("sees and starts the agents its tags and addresses grant", async () => {
    const hr: Caller = { ...ops, agents: ["tag:hr"] };
    const one: Caller = { ...ops, agents: ["scoped/hiring"] };
    const seen = async (who: Caller) =>
      (await here.services.catalog.entries(who))
        .filter((entry) => entry.kind === "agent")
        .map((entry) => entry.address);
    expect((await seen(hr)).sort()).toEqual(["scoped/hiring", "scoped/payroll"]);
    expect(await seen(one)).toEqual(["scoped/hiring"]);
    expect(await here.services.jobs.get(hr, payrollJob)).toMatchObject({ agent: "scoped/payroll" });
    const started = await here.services.jobs.start(one, { agent: "scoped/hiring", input: "x" });
    expect(started).toMatchObject({ agent: "scoped/hiring", status: "queued" });
    await here.services.jobs.cancel(one, started.id);
  });

  it("sees only the kill switches and inventory entries of its agents, tag grants included", async () => {
    const hr: Caller = { ...ops, agents: ["tag:hr"] };
    await here.services.killSwitches.kill(hr, "agent", "scoped/payroll");
    await here.services.inventory.set(hr, "agent", "scoped/payroll", { purpose: "pays people" });
    try {
      expect((await here.services.killSwitches.list(hr)).map((one) => one.address)).toEqual([
        "scoped/payroll",
      ]);
      expect((await here.services.inventory.list(hr)).map((one) => one.address)).toEqual(["scoped/payroll"]);
      expect(await here.services.killSwitches.list(ops)).toEqual([]);
      expect(await here.services.inventory.list(ops)).toEqual([]);
    } finally {
      await here.services.killSwitches.revive(hr, "agent", "scoped/payroll");
    }
  });

  it("sees only the members and keys whose agents lie within its own", async () => {
    const scopedAdmin: Caller = { ...ops, actor: "key:scoped-admin", role: "admin" };
    const installer: Caller = { ...admin, tenant: "default" };
    await here.services.identity.addUser(installer, "payroll-clerk", "a long enough password");
    await here.services.identity.addMember(admin, {
      user: "payroll-clerk",
      role: "viewer",
      agents: ["tag:hr"],
    });
    await here.services.identity.addUser(installer, "deployer", "a long enough password");
    await here.services.identity.addMember(admin, { user: "deployer", role: "viewer", agents: ["tag:ops"] });
    await here.services.identity.createKey(admin, {
      name: "payroll-bot",
      role: "runner",
      agents: ["scoped/payroll"],
    });
    await here.services.identity.createKey(admin, { name: "ops-bot", role: "runner", agents: ["tag:ops"] });
    const members = (await here.services.identity.listMembers(scopedAdmin)).map((member) => member.user);
    expect(members).toContain("deployer");
    expect(members).not.toContain("payroll-clerk");
    const keys = (await here.services.identity.listKeys(scopedAdmin)).map((key) => key.name);
    expect(keys).toEqual(["ops-bot"]);
    expect((await here.services.identity.listKeys(admin)).map((key) => key.name).sort()).toEqual([
      "ops-bot",
      "payroll-bot",
    ]);
  });

  it("may not remove a member or revoke a key whose agents reach past its own: answered as a missing one", async () => {
    const scopedAdmin: Caller = { ...ops, actor: "key:scoped-admin", role: "admin" };
    const installer: Caller = { ...admin, tenant: "default" };
    await here.services.identity.addUser(installer, "hr-lead", "a long enough password");
    await here.services.identity.addMember(admin, { user: "hr-lead", role: "viewer", agents: ["tag:hr"] });
    const wide = await here.services.identity.createKey(admin, {
      name: "hr-bot",
      role: "runner",
      agents: ["*"],
    });
    const removing = await answer((s) => s.identity.removeMember(scopedAdmin, "hr-lead"), here);
    const missingMember = await answer((s) => s.identity.removeMember(scopedAdmin, "nobody-here"), here);
    expect(removing).toMatchObject({ code: "NOT_FOUND" });
    expect(JSON.stringify(removing)).toBe(JSON.stringify(missingMember).replaceAll("nobody-here", "hr-lead"));
    const revoking = await answer((s) => s.identity.revokeKey(scopedAdmin, wide.id), here);
    const missingKey = await answer((s) => s.identity.revokeKey(scopedAdmin, "k_nothere"), here);
    expect(revoking).toMatchObject({ code: "NOT_FOUND" });
    expect(JSON.stringify(revoking)).toBe(JSON.stringify(missingKey).replaceAll("k_nothere", wide.id));
    // Both are still there for an admin of every agent.
    expect((await here.services.identity.listMembers(admin)).map((member) => member.user)).toContain(
      "hr-lead",
    );
    expect(
      (await here.services.identity.listKeys(admin)).find((key) => key.id === wide.id)?.revokedAt,
    ).toBeNull();
  });

  it("may not read the audit log, whose entries name every agent's changes", async () => {
    const scopedAdmin: Caller = { ...ops, actor: "key:scoped-admin", role: "admin" };
    const refused = await answer((s) => s.audit.list(scopedAdmin), here);
    expect(refused).toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("reading it needs an admin whose agents are * (every agent)"),
    });
    expect(JSON.stringify(refused)).not.toContain("payroll");
    expect(await here.services.audit.list(admin)).not.toEqual([]);
  });

  it("may not add a routine of an agent outside its scope (answered as a missing one), nor one that runs as more agents than it has", async () => {
    const routine = { name: "payday", run: "scoped/payroll", event: "webhook" };
    const [outside, missing] = await bothAnswers((s) => s.routines.add(ops, routine));
    expect(outside).toMatchObject({ code: "NOT_FOUND" });
    expect(outside).toEqual(missing);
    const wider = await answer(
      (s) =>
        s.routines.add(ops, {
          name: "wide",
          run: "scoped/deploy",
          event: "webhook",
          identity: { role: "runner", agents: ["scoped/payroll"] },
        }),
      here,
    );
    expect(wider).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("goes beyond it") });
    const own = await answer(
      (s) => s.routines.add(ops, { name: "ship", run: "scoped/deploy", event: "webhook" }),
      here,
    );
    expect(own).toMatchObject({ value: { name: "ship", run: "scoped/deploy" } });
    const names = (await here.services.routines.list(admin)).map((each) => each.name);
    expect(names).toContain("ship");
    expect(names).not.toContain("payday");
    expect(names).not.toContain("wide");
  });

  it("may not serve the whole catalog over MCP", async () => {
    const refused = await answer((s) => s.mcp.serve(ops), here);
    expect(refused).toMatchObject({ code: "FORBIDDEN" });
  });
});
