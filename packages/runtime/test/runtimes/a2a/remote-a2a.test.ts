// runtime: remote:a2a end to end against a loopback A2A agent written with the official SDK:
// task states become job states, input-required a question, artifacts the answer; a deny rule,
// an approval and a kill switch take effect on the remote call; a crashed run resumes the
// recorded task without sending its message again; the card is checked before any message.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateAgentCardSignature } from "@a2a-js/sdk";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../../src/callers/index.js";
import { lintPlugin } from "../../../src/lint/index.js";
import { pluginConfigKey } from "../../../src/plugin-config/index.js";
import { ENDPOINTS_VARIABLE } from "../../../src/runtimes/index.js";
import { tenantUsage } from "../../../src/usage/index.js";
import { ALICE, type Lab, lab, ofKind } from "../../policy/helpers.js";
import { baseCard, type FixtureAgent, startFixtureAgent } from "./agent-server.js";

const PARTNER = fileURLToPath(new URL("../../fixtures/runtimes/a2a", import.meta.url));
/** The first-party governance plugin's folder, which runs its build (the tests' global setup makes it). */
const GOVERNANCE = fileURLToPath(new URL("../../../../../plugins/governance", import.meta.url));

let agent: FixtureAgent;
let l: Lab;
const savedEndpoints = process.env[ENDPOINTS_VARIABLE];

async function tenantWithKey(plugin = PARTNER): Promise<string> {
  const tenant = await l.tenant(plugin);
  await l.runtime.services.remote.setSecret(localAdmin(tenant), "partner-token", "tok-partner-123");
  return tenant;
}

async function configureGovernance(tenant: string, config: object): Promise<void> {
  await l.runtime.store.db
    .insertInto("settings")
    .values({
      tenant,
      key: pluginConfigKey("governance"),
      value: JSON.stringify(config),
      updated_at: Date.now(),
    })
    .execute();
}

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the condition never held");
}

beforeAll(async () => {
  agent = await startFixtureAgent();
  process.env[ENDPOINTS_VARIABLE] = ["painter", "picky", "strict", "pricey", "unskilled", "headed"]
    .map((name) => `partner/${name}=${agent.url}`)
    .join(",");
  l = await lab();
});

afterAll(async () => {
  if (savedEndpoints === undefined) delete process.env[ENDPOINTS_VARIABLE];
  else process.env[ENDPOINTS_VARIABLE] = savedEndpoints;
  await l?.close();
  await agent?.close();
});

describe("runtime: remote:a2a", () => {
  it("sends the job's input as one message and answers with the completed task's artifact, the key and session in its headers", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo hello" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "echo: hello" });
    const [message] = agent.received.slice(before);
    expect(message).toMatchObject({ messageId: `${started.id}:remote.1`, text: "echo hello" });
    expect(message?.headers.authorization).toBe("Bearer tok-partner-123");
    expect(message?.headers["x-oz0-session"]).toBe(started.id);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_started")[0]?.data.runtime).toBe("remote:a2a");
    // The task is the job's one step, on the runtime and the outside agent, by the node that claimed the job.
    const node = ofKind(events, "job_claimed")[0]?.data.node;
    expect(node).toMatch(/.+/);
    expect(ofKind(events, "model_call").map((entry) => entry.data)).toEqual([
      {
        step: 1,
        runtime: "remote:a2a",
        model: "a2a:partner/painter",
        node,
        calls: [],
        usage: { input: 0, output: 0 },
        ms: 0,
      },
    ]);
    expect(ofKind(events, "tool_call").map((entry) => entry.data.address)).toEqual([
      "partner/painter.send_message",
    ]);
    expect(ofKind(events, "remote_task").map((entry) => entry.data.state)).toEqual([
      "submitted",
      "completed",
    ]);
    // The tenant's secret never reaches the history.
    expect(JSON.stringify(events)).not.toContain("tok-partner-123");
  });

  it("passes each message to and from the outside agent through pre_agent_communication, which may rewrite it", async () => {
    const tenant = await tenantWithKey();
    const dir = await mkdtemp(join(tmpdir(), "oz0-a2a-hooks-"));
    await writeFile(
      join(dir, "plugin.yaml"),
      "name: relay\nversion: 1.0.0\ndescription: Rewrites messages between agents.\nmain: index.js\ncapabilities: [hook]\n",
    );
    await writeFile(
      join(dir, "index.js"),
      `export const heard = [];
export default {
  setup(host) {
    host.addHook({
      name: "relay",
      build: () => ({
        pre_agent_communication: (p) =>
          p.kind === "request"
            ? { message: { ...p.message, text: "echo rewritten" } }
            : { message: { ...p.message, text: p.message.text + " (relayed)" } },
        // A message to an outside agent is not a tool use: this never fires for it.
        pre_tool_call: () => {
          throw Object.assign(new Error("no tools"), { code: "POLICY_VIOLATION", contractId: "no-tools", reason: "no tools", details: {} });
        },
      }),
    });
  },
};
`,
    );
    await l.runtime.catalog.install(tenant, dir);
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo hello" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(agent.received.slice(before)[0]).toMatchObject({ text: "echo rewritten" });
    expect(job).toMatchObject({ status: "succeeded", output: "echo: rewritten (relayed)" });
    const events = await l.events(started.id);
    expect(ofKind(events, "tool_call")[0]?.data.args).toMatchObject({ text: "echo rewritten" });
    expect(
      ofKind(events, "governance_checked").filter((entry) => entry.data.hook === "pre_agent_communication"),
    ).toHaveLength(2);
    expect(ofKind(events, "governance_denied")).toEqual([]);
  });

  it("redacts the tenant's key from what the outside agent says back", async () => {
    const tenant = await tenantWithKey();
    const started = await l.runtime.jobs.start({
      tenant,
      agent: "partner/painter",
      input: "echo tok-partner-123",
    });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("succeeded");
    expect(JSON.stringify(job)).not.toContain("tok-partner-123");
    expect(JSON.stringify(await l.events(started.id))).not.toContain("tok-partner-123");
  });

  it("turns input-required into a question, and sends the answer as the task's next message", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "ask" });
    const waiting = await l.runtime.jobs.run(started.id, { tenant });
    expect(waiting).toMatchObject({
      status: "waiting",
      waitingFor: { kind: "answer", callId: "remote.1.question", question: "Which colour?" },
    });
    await l.runtime.jobs.answer(started.id, "blue", ALICE, { tenant });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "colour: blue" });
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["ask", "blue"]);
    const tasks = ofKind(await l.events(started.id), "remote_task").map((entry) => entry.data.task);
    expect(new Set(tasks).size).toBe(1);
  });

  it("fails the job with remote_error when the remote task fails", async () => {
    const tenant = await tenantWithKey();
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "fail" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.kind).toBe("remote_error");
    expect(job.failure?.message).toContain("as failed: out of paint");
  });

  it("a deny rule on the remote call refuses it before any message goes out", async () => {
    const tenant = await tenantWithKey();
    await l.runtime.policy.set(tenant, "deny", "partner/painter.send_message");
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo no" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.kind).toBe("policy_denied");
    expect(agent.received.length).toBe(before);
  });

  it("an ask rule holds the remote call for a person's approval, and the approved call goes out once", async () => {
    const tenant = await tenantWithKey();
    await l.runtime.policy.set(tenant, "ask", "partner/painter.send_message");
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo approved" });
    const held = await l.runtime.jobs.run(started.id, { tenant });
    expect(held).toMatchObject({ status: "waiting", waitingFor: { kind: "approval", callId: "remote.1" } });
    expect(agent.received.length).toBe(before);
    const [approval] = await l.runtime.approvals.list(tenant);
    if (approval === undefined) throw new Error("no approval was asked for");
    expect(approval.address).toBe("partner/painter.send_message");
    await l.runtime.approvals.approve(tenant, approval.id, ALICE);
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "echo: approved" });
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["echo approved"]);
  });

  it("a kill switch pulled while the task runs ends the job and cancels the remote task", async () => {
    const tenant = await tenantWithKey();
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "hold" });
    const running = l.runtime.jobs.run(started.id, { tenant });
    await until(async () => ofKind(await l.events(started.id), "remote_task").length > 0);
    await l.runtime.killSwitches.kill(tenant, "agent", "partner/painter", ALICE);
    const job = await running;
    expect(job).toMatchObject({ status: "failed", failure: { kind: "killed" } });
    const task = ofKind(await l.events(started.id), "remote_task")[0]?.data.task;
    expect(agent.cancelled).toContain(task);
  });

  it("oz0 job cancel while the task runs cancels the job and the remote task", async () => {
    const tenant = await tenantWithKey();
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "hold" });
    const running = l.runtime.jobs.run(started.id, { tenant });
    await until(async () => ofKind(await l.events(started.id), "remote_task").length > 0);
    await l.runtime.jobs.cancel(started.id, ALICE, { tenant });
    const job = await running;
    expect(job.status).toBe("cancelled");
    const task = ofKind(await l.events(started.id), "remote_task")[0]?.data.task;
    await until(() => agent.cancelled.includes(task ?? ""));
  });

  it("a run stopped while it waits on the task resumes the recorded task, never sending the message twice", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "hold" });
    const crash = new AbortController();
    const first = l.runtime.jobs.run(started.id, { tenant, signal: crash.signal });
    await until(async () => ofKind(await l.events(started.id), "remote_task").length > 0);
    crash.abort();
    expect((await first).status).toBe("queued");
    agent.release("done at last");
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "done at last" });
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["hold"]);
    const events = await l.events(started.id);
    expect(ofKind(events, "job_claimed")).toHaveLength(2);
    expect(ofKind(events, "tool_call")).toHaveLength(1);
  });

  it("never sends a message twice: a run that died before the task's id was recorded ends the job instead", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "stall" });
    const crash = new AbortController();
    const first = l.runtime.jobs.run(started.id, { tenant, signal: crash.signal });
    await until(() => agent.received.length > before);
    crash.abort();
    expect((await first).status).toBe("queued");
    const events = await l.events(started.id);
    expect(ofKind(events, "tool_call")).toHaveLength(1);
    expect(ofKind(events, "remote_task")).toEqual([]);
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.kind).toBe("remote_error");
    expect(job.failure?.message).toContain("oz0 does not send a message twice");
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["stall"]);
  });

  it("counts a task at its harness.task_usd in the job's and the tenant's usage, as a step on remote:a2a", async () => {
    const tenant = await tenantWithKey();
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/pricey", input: "echo paid" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "echo: paid" });
    const steps = ofKind(await l.events(started.id), "model_call").map((entry) => entry.data);
    expect(steps).toMatchObject([
      { step: 1, runtime: "remote:a2a", model: "a2a:partner/pricey", cost_usd: 0.25 },
    ]);
    const usage = await tenantUsage(l.runtime.store, tenant, { since: 0, agent: "partner/pricey" });
    expect(usage).toMatchObject({ modelCalls: 1, costUsd: 0.25 });
  });

  it("checks task_usd against the job's cost ceiling (a routine's max_cost_usd) before the message goes out", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    await l.runtime.routines.add(localAdmin(tenant), {
      name: "thrifty",
      event: "webhook",
      run: "partner/pricey",
      limits: { max_cost_usd: 0.2 },
    });
    const fired = await l.runtime.routines.fire(localAdmin(tenant), "thrifty");
    const job = await l.runtime.jobs.run(fired.job ?? "", { tenant });
    expect(job.failure).toMatchObject({
      kind: "budget_exceeded",
      message:
        "a task of partner/pricey may cost $0.25 (harness.task_usd); with $0.0000 spent, that passes the job's limits.max_cost_usd ($0.2), so it was not started",
    });
    expect(agent.received.length).toBe(before);
  });

  it("stops a remote task at the tenant's budget before its message goes out, counting the tasks before it", async () => {
    const tenant = await tenantWithKey();
    await l.runtime.catalog.install(tenant, GOVERNANCE);
    await configureGovernance(tenant, { budget: { tenant: { usd: 0.4 } } });
    const before = agent.received.length;
    const first = await l.runtime.jobs.start({ tenant, agent: "partner/pricey", input: "echo one" });
    expect((await l.runtime.jobs.run(first.id, { tenant })).status).toBe("succeeded");
    const second = await l.runtime.jobs.start({ tenant, agent: "partner/pricey", input: "echo two" });
    const job = await l.runtime.jobs.run(second.id, { tenant });
    expect(job.failure).toMatchObject({ kind: "budget_exceeded", code: "POLICY_VIOLATION" });
    expect(agent.received.slice(before).map((entry) => entry.text)).toEqual(["echo one"]);
    const events = await l.events(second.id);
    expect(ofKind(events, "governance_denied")[0]?.data).toMatchObject({
      hook: "pre_llm_call",
      contract_id: "budget",
      reason: "Cost ceiling exceeded",
      details: { scope: "tenant", ceiling: 0.4, used: 0.25, requested: 0.25 },
    });
    expect(ofKind(events, "tool_call")).toEqual([]);
    expect(ofKind(events, "model_call")).toEqual([]);
  });

  it("refuses a remote task that says nothing of its cost when the tenant's budget has a cost ceiling", async () => {
    const tenant = await tenantWithKey();
    await l.runtime.catalog.install(tenant, GOVERNANCE);
    await configureGovernance(tenant, { budget: { tenant: { usd: 10 } } });
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo free" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.failure).toMatchObject({ kind: "budget_exceeded" });
    expect(job.failure?.message).toContain(
      "Cost ceiling cannot be checked: no price for a2a:partner/painter",
    );
    expect(agent.received.length).toBe(before);
  });

  it("refuses a remote task whose message a pre_llm_call handler rewrote, sending nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oz0-a2a-shouter-"));
    await writeFile(
      join(dir, "plugin.yaml"),
      "name: shouter\nversion: 1.0.0\ndescription: Rewrites every model request.\nmain: index.js\ncapabilities: [hook]\n",
    );
    await writeFile(
      join(dir, "index.js"),
      [
        "export default {",
        "  setup(host) {",
        '    host.addHook({ name: "shout", build: () => ({',
        "      pre_llm_call: (payload) => ({ messages: payload.messages.map((m) => ({ ...m, content: String(m.content).toUpperCase() })) }),",
        "    }) });",
        "  },",
        "};",
        "",
      ].join("\n"),
    );
    const tenant = await tenantWithKey();
    await l.runtime.catalog.install(tenant, dir);
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/pricey", input: "echo quiet" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.failure).toMatchObject({
      kind: "policy_denied",
      message:
        "a pre_llm_call handler rewrote the messages of step 1 on remote:a2a (a task of partner/pricey may cost $0.25 (harness.task_usd)); they go to an agent outside oz0 as the agent's runtime wrote them, so the step was not started",
    });
    expect(agent.received.length).toBe(before);
  });

  it("refuses a card whose version is not the one harness.version asks for, with a clear error", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/picky", input: "echo x" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.status).toBe("failed");
    expect(job.failure?.kind).toBe("remote_error");
    expect(job.failure?.message).toBe(
      `the A2A agent card at ${agent.url}/.well-known/agent-card.json states agent version '1.2.0', and harness.version asks for 2.0.0`,
    );
    expect(agent.received.length).toBe(before);
  });

  it("refuses a card that lists no skill harness.skill names, before any message goes out", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/unskilled", input: "echo x" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "failed", failure: { kind: "remote_error" } });
    expect(job.failure?.message).toContain("has no skill 'sculpt' (harness.skill); its skills: echo");
    expect(agent.received.length).toBe(before);
  });

  it("auth: header:<Name> sends the tenant's key in that header, not as a bearer token", async () => {
    const tenant = await tenantWithKey();
    const before = agent.received.length;
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/headed", input: "echo hi" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job).toMatchObject({ status: "succeeded", output: "echo: hi" });
    const [message] = agent.received.slice(before);
    expect(message?.headers["x-api-key"]).toBe("tok-partner-123");
    expect(message?.headers.authorization).toBeUndefined();
  });

  it("checks the card's signature against harness.jwks: a signed card is used, a tampered one refused", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "partner-1", alg: "ES256" };
    const dir = await mkdtemp(join(tmpdir(), "oz0-a2a-signed-"));
    await writeFile(
      join(dir, "plugin.yaml"),
      [
        "name: partner",
        "version: 1.0.0",
        "description: An outside agent whose card must be signed.",
        "model: { use: test }",
        "agents:",
        "  - name: strict",
        "    description: Uses a signed card only.",
        "    runtime: remote:a2a",
        "    harness:",
        "      signature: true",
        `      jwks: { keys: [${JSON.stringify(jwk)}] }`,
        "    skills: []",
        "    input: text",
        "    output: text",
        "",
      ].join("\n"),
    );
    const tenant = await l.tenant(dir);
    const sign = generateAgentCardSignature(privateKey, { alg: "ES256", kid: "partner-1", typ: "JOSE" });
    const signed = await sign(baseCard(agent.url));
    const served = agent.card;
    try {
      agent.card = signed;
      const good = await l.runtime.jobs.start({ tenant, agent: "partner/strict", input: "echo signed" });
      expect(await l.runtime.jobs.run(good.id, { tenant })).toMatchObject({
        status: "succeeded",
        output: "echo: signed",
      });
      agent.card = { ...signed, description: "Something else entirely." };
      const before = agent.received.length;
      const bad = await l.runtime.jobs.start({ tenant, agent: "partner/strict", input: "echo tampered" });
      const job = await l.runtime.jobs.run(bad.id, { tenant });
      expect(job.failure?.kind).toBe("remote_error");
      expect(job.failure?.message).toContain("has no valid signature by a key of harness.jwks");
      agent.card = { ...served, signatures: [] };
      const unsigned = await l.runtime.jobs.start({
        tenant,
        agent: "partner/strict",
        input: "echo unsigned",
      });
      const refused = await l.runtime.jobs.run(unsigned.id, { tenant });
      expect(refused.failure?.message).toContain("carries no signature");
      expect(agent.received.length).toBe(before);
    } finally {
      agent.card = served;
    }
  });

  it("keeps the key as a tenant secret whose name alone is listed, and says which one is missing", async () => {
    const tenant = await l.tenant(PARTNER);
    expect(await l.runtime.services.remote.secrets(localAdmin(tenant))).toEqual([]);
    const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo x" });
    const job = await l.runtime.jobs.run(started.id, { tenant });
    expect(job.failure?.message).toContain(
      "the tenant has none of that name: set it with oz0 remote secret set partner-token",
    );
    await l.runtime.services.remote.setSecret(localAdmin(tenant), "partner-token", "tok-partner-123");
    expect(await l.runtime.services.remote.secrets(localAdmin(tenant))).toEqual(["partner-token"]);
  });

  it("fails with what to do when the node's operator set no endpoint for the agent", async () => {
    const tenant = await tenantWithKey();
    const saved = process.env[ENDPOINTS_VARIABLE];
    process.env[ENDPOINTS_VARIABLE] = "";
    try {
      const started = await l.runtime.jobs.start({ tenant, agent: "partner/painter", input: "echo x" });
      const job = await l.runtime.jobs.run(started.id, { tenant });
      expect(job.failure?.kind).toBe("remote_error");
      expect(job.failure?.message).toContain(`the node's operator sets one in ${ENDPOINTS_VARIABLE}`);
    } finally {
      process.env[ENDPOINTS_VARIABLE] = saved;
    }
  });

  it("lint passes the fixture's agents and reports options a remote A2A agent does not take (OZ-S036)", async () => {
    const report = await lintPlugin(PARTNER);
    expect(report.findings.filter((finding) => finding.severity === "error")).toEqual([]);
  });
});
