// Approvals, tool policy, kill switches, inventory and the catalog over HTTP: each route's
// happy path and refusals; a viewer refused before the body is read; and for keys limited by
// address and by tag, every answer about an out-of-scope agent, its jobs and approvals is the
// answer about a nonexistent one, byte for byte.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeyName, LAB, type TestServer, testServer } from "./helpers.js";

const VAULT = fileURLToPath(new URL("../../runtime/test/fixtures/policy/vault", import.meta.url));

let test: TestServer;
let approvalId: string;
let jobId: string;

async function call(
  method: string,
  path: string,
  key: KeyName | undefined,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const response = await test.request(`/v1/t/${LAB}${path}`, {
    method,
    key,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.text() };
}

async function waitingApproval(): Promise<{ job: string; id: string }> {
  for (;;) {
    const listed = await call("GET", "/approvals", "admin");
    const [first] = (JSON.parse(listed.body) as { approvals: { id: string; job: string }[] }).approvals;
    if (first !== undefined) return first;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  test = await testServer();
  // The vault's agent names overlap helpdesk's: this tenant has the vault alone.
  await test.runtime.catalog.remove(LAB, "helpdesk");
  await test.runtime.catalog.install(LAB, VAULT);
  expect(
    (await call("PUT", "/policy", "admin", { action: "ask", pattern: "vault/vault.write" })).status,
  ).toBe(200);
  const started = await call("POST", "/jobs", "admin", { agent: "vault/keeper", input: "store it" });
  expect(started.status).toBe(201);
  ({ id: approvalId, job: jobId } = await waitingApproval());
});
afterAll(async () => {
  await test.close();
});

describe("approvals", () => {
  it("lists the pending approvals and gets one", async () => {
    const got = await call("GET", `/approvals/${approvalId}`, "viewer");
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ id: approvalId, job: jobId, status: "pending" });
  });

  it("answers an unknown approval with 404 NOT_FOUND", async () => {
    const got = await call("GET", "/approvals/nosuch", "viewer");
    expect(got.status).toBe(404);
    expect(JSON.parse(got.body).error.code).toBe("NOT_FOUND");
  });

  it("refuses a viewer's approve and deny with 403 before reading the body", async () => {
    for (const verb of ["approve", "deny"]) {
      const refused = await test.request(`/v1/t/${LAB}/approvals/${approvalId}/${verb}`, {
        method: "POST",
        key: "viewer",
        body: "not json",
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    }
  });

  it("refuses a body with unknown fields with 422", async () => {
    const refused = await call("POST", `/approvals/${approvalId}/deny`, "admin", { why: "x" });
    expect(refused.status).toBe(422);
  });
});

describe("tool policy", () => {
  it("sets, lists and removes a rule", async () => {
    expect((await call("PUT", "/policy", "admin", { action: "deny", pattern: "vault/audit.*" })).status).toBe(
      200,
    );
    const listed = JSON.parse((await call("GET", "/policy", "viewer")).body) as {
      rules: { pattern: string }[];
    };
    expect(listed.rules.map((rule) => rule.pattern)).toContain("vault/audit.*");
    const removed = await test.request(`/v1/t/${LAB}/policy?pattern=${encodeURIComponent("vault/audit.*")}`, {
      method: "DELETE",
      key: "admin",
    });
    expect(removed.status).toBe(200);
    const again = JSON.parse((await call("GET", "/policy", "viewer")).body) as {
      rules: { pattern: string }[];
    };
    expect(again.rules.map((rule) => rule.pattern)).not.toContain("vault/audit.*");
  });

  it("refuses an action that is not allow, ask or deny with 422", async () => {
    expect((await call("PUT", "/policy", "admin", { action: "maybe", pattern: "x/y" })).status).toBe(422);
  });

  it("refuses a runner's policy change with 403", async () => {
    expect((await call("PUT", "/policy", "runner", { action: "allow", pattern: "x/y" })).status).toBe(403);
  });
});

describe("kill switches and inventory", () => {
  it("kills, lists and revives an agent", async () => {
    const killed = await call("POST", "/kill-switches", "admin", {
      kind: "agent",
      address: "vault/boss",
    });
    expect(killed.status).toBe(200);
    const listed = JSON.parse((await call("GET", "/kill-switches", "viewer")).body) as {
      switches: { address: string }[];
    };
    expect(listed.switches.map((one) => one.address)).toContain("vault/boss");
    const revived = await test.request(`/v1/t/${LAB}/kill-switches?kind=agent&address=vault/boss`, {
      method: "DELETE",
      key: "admin",
    });
    expect(revived.status).toBe(200);
  });

  it("refuses a viewer's kill with 403 before reading the body", async () => {
    const refused = await test.request(`/v1/t/${LAB}/kill-switches`, {
      method: "POST",
      key: "viewer",
      body: "{",
    });
    expect(refused.status).toBe(403);
  });

  it("sets and lists what an agent is for", async () => {
    const set = await call("PUT", "/inventory", "admin", {
      kind: "agent",
      address: "vault/keeper",
      purpose: "sorts tickets",
      owner: "ops",
    });
    expect(set.status).toBe(200);
    const listed = JSON.parse((await call("GET", "/inventory", "viewer")).body) as {
      entries: { address: string; purpose: string }[];
    };
    expect(listed.entries).toContainEqual(
      expect.objectContaining({ address: "vault/keeper", purpose: "sorts tickets" }),
    );
  });
});

describe("catalog", () => {
  it("lists parts by address and looks one up", async () => {
    const listed = JSON.parse((await call("GET", "/catalog", "viewer")).body) as {
      parts: { address: string }[];
    };
    expect(listed.parts.map((part) => part.address)).toContain("vault/keeper");
    const found = await call("GET", "/catalog/lookup?name=vault/keeper", "viewer");
    expect(found.status).toBe(200);
    expect(JSON.parse(found.body)).toMatchObject({ kind: "agent", address: "vault/keeper", bare: false });
  });
});

describe("the role matrix", () => {
  it("refuses each change to the role just below its own with 403 FORBIDDEN, before reading the body", async () => {
    const changes = [
      ["POST", `/approvals/${approvalId}/approve`, "runner"],
      ["POST", `/approvals/${approvalId}/deny`, "runner"],
      ["PUT", "/policy", "viewer"],
      ["DELETE", "/policy?pattern=x", "viewer"],
      ["POST", "/kill-switches", "viewer"],
      ["DELETE", "/kill-switches?kind=agent&address=vault/boss", "viewer"],
      ["PUT", "/inventory", "viewer"],
      ["POST", "/plugins", "viewer"],
      ["PUT", "/plugins", "runner"],
      ["DELETE", "/plugins/vault", "runner"],
    ] as const;
    for (const [method, path, key] of changes) {
      const refused = await test.request(`/v1/t/${LAB}${path}`, { method, key, body: "not json" });
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    }
    expect(JSON.parse((await call("GET", `/approvals/${approvalId}`, "admin")).body)).toMatchObject({
      status: "pending",
    });
  });
});

describe("the scope matrix", () => {
  // The out-of-scope agent and its job and approval, and what stands for a nonexistent one.
  const hidden = { agent: "vault/keeper", missingAgent: "vault/keeperx" };

  const asks = (agent: string, job: string, approval: string) =>
    [
      ["GET", `/jobs/${job}`, undefined],
      ["GET", `/jobs/${job}/events`, undefined],
      ["POST", `/jobs/${job}/cancel`, undefined],
      ["GET", `/approvals/${approval}`, undefined],
      ["POST", `/approvals/${approval}/approve`, {}],
      ["POST", `/approvals/${approval}/deny`, { reason: "no" }],
      ["POST", "/kill-switches", { kind: "agent", address: agent }],
      ["DELETE", `/kill-switches?kind=agent&address=${agent}`, undefined],
      ["PUT", "/inventory", { kind: "agent", address: agent, purpose: "p" }],
      ["GET", `/catalog/lookup?name=${agent}`, undefined],
      ["POST", "/jobs", { agent, input: "x" }],
    ] as const;

  for (const key of ["scopedOperator", "taggedOperator"] as const) {
    it(`answers ${key} about an out-of-scope agent, job and approval exactly as about nonexistent ones`, async () => {
      const real = asks(hidden.agent, jobId, approvalId);
      const fake = asks(hidden.missingAgent, "keeper-nosuchjob", "nosuchapproval");
      for (let i = 0; i < real.length; i++) {
        const [method, path, body] = real[i]!;
        const [, fakePath, fakeBody] = fake[i]!;
        const seen = await call(method, path, key, body);
        const missing = await call(method, fakePath, key, fakeBody);
        const named = missing.body
          .replaceAll(hidden.missingAgent, hidden.agent)
          .replaceAll("keeper-nosuchjob", jobId)
          .replaceAll("nosuchapproval", approvalId);
        expect({ path, ...seen }).toEqual({ path, status: missing.status, body: named });
        expect(seen.status).toBe(404);
      }
      // Lists leave the hidden job's approval and the hidden agent out.
      const approvals = JSON.parse((await call("GET", "/approvals", key)).body) as { approvals: unknown[] };
      expect(approvals.approvals).toEqual([]);
      const parts = JSON.parse((await call("GET", "/catalog", key)).body) as { parts: { address: string }[] };
      expect(parts.parts.map((part) => part.address)).not.toContain(hidden.agent);
      const plugin = JSON.parse((await call("GET", "/plugins/vault", key)).body) as {
        agents: { address: string }[];
      };
      expect(plugin.agents.map((agent) => agent.address)).not.toContain(hidden.agent);
      // Nothing was decided, cancelled or killed.
      expect(JSON.parse((await call("GET", `/approvals/${approvalId}`, "admin")).body)).toMatchObject({
        status: "pending",
      });
      const switches = JSON.parse((await call("GET", "/kill-switches", "admin")).body) as {
        switches: unknown[];
      };
      expect(switches.switches).toEqual([]);
    });
  }
});

describe("approving", () => {
  it("approves the held call and the job goes on", async () => {
    const approved = await call("POST", `/approvals/${approvalId}/approve`, "admin", { reason: "fine" });
    expect(approved.status).toBe(200);
    const again = JSON.parse((await call("GET", `/approvals/${approvalId}`, "admin")).body);
    expect(again).toMatchObject({ status: "approved" });
  });
});
