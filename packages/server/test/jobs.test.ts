// The jobs API over a real server: StartJob to a succeeded job, the input checked before the
// job exists, the owner check's refusal, and get, search, cancel and answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOf, LAB, type TestServer, testServer, untilEnded } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

async function start(body: unknown, key: "admin" | "runner" | "viewer" | "scoped" = "runner") {
  return test.request(`/v1/t/${LAB}/jobs`, { method: "POST", key, body: JSON.stringify(body) });
}

async function untilWaiting(id: string): Promise<{ status: string; waitingFor: { kind: string } | null }> {
  for (;;) {
    const response = await test.request(`/v1/t/${LAB}/jobs/${id}`, { key: "viewer" });
    const job = (await response.json()) as { status: string; waitingFor: { kind: string } | null };
    if (job.status === "waiting") return job;
    if (["succeeded", "failed", "cancelled", "dead"].includes(job.status))
      throw new Error(`job ${id} ended: ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function jobCount(): Promise<number> {
  return (await test.runtime.jobs.search({ tenant: LAB, limit: 1000 })).length;
}

describe("StartJob", () => {
  it("starts a job that the server's worker runs to success", async () => {
    const response = await start({ agent: "helpdesk/triage", input: "ticket 7" });
    expect(response.status).toBe(201);
    const job = (await response.json()) as { id: string; agent: string; status: string };
    expect(job).toMatchObject({ agent: "helpdesk/triage", tenant: LAB, input: "ticket 7" });
    expect((await untilEnded(test, LAB, job.id)).status).toBe("succeeded");
    const done = (await (await test.request(`/v1/t/${LAB}/jobs/${job.id}`, { key: "viewer" })).json()) as {
      output: unknown;
    };
    expect(done.output).toBe("billing");
  });

  it("refuses input that does not match the agent's input_schema with 422 INVALID_INPUT before any job exists", async () => {
    const before = await jobCount();
    const response = await start({ agent: "helpdesk/typed", input: { ticket: "seven" } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string; status: number } };
    expect(body.error).toMatchObject({ code: "INVALID_INPUT", status: 422, side: "user", retryable: false });
    expect(body.error.message).toContain("input_schema schemas/in.json");
    expect(await jobCount()).toBe(before);
  });

  it("starts an agent with an input_schema when the input matches it", async () => {
    const response = await start({ agent: "helpdesk/typed", input: { ticket: 7 } });
    expect(response.status).toBe(201);
  });

  it("refuses a body that does not match StartJob's schema in the one error shape", async () => {
    const response = await start({ agent: "helpdesk/triage", input: "x", extra: true });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; data: { issues: unknown[] } } };
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(body.error.data.issues.length).toBeGreaterThan(0);
  });

  it("refuses a body that is not JSON in the one error shape", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs`, {
      method: "POST",
      key: "runner",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(body.error.message).toContain("not JSON");
  });

  it("refuses an address whose plugin does not own the agent with the owner check's text", async () => {
    const response = await start({ agent: "clash/triage", input: "x" });
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("OWNER_MISMATCH");
    expect(body.error.message).toBe("clash/triage is not an agent of clash: triage is helpdesk's");
    expect(response.status).toBe(400);
  });

  it("returns the first job for a second StartJob with the same idempotency key", async () => {
    const first = (await (
      await start({ agent: "helpdesk/triage", input: "t", idempotency_key: "k-1" })
    ).json()) as {
      id: string;
    };
    const again = await start({ agent: "helpdesk/triage", input: "t", idempotency_key: "k-1" });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { id: string }).id).toBe(first.id);
    const other = await start({ agent: "helpdesk/triage", input: "other", idempotency_key: "k-1" });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
  });
});

describe("jobs: get, search, cancel, answer", () => {
  it("answers a job's question and the job goes on to succeed", async () => {
    const job = (await (await start({ agent: "helpdesk/asker", input: "q" })).json()) as { id: string };
    expect((await untilWaiting(job.id)).waitingFor?.kind).toBe("answer");
    const answered = await test.request(`/v1/t/${LAB}/jobs/${job.id}/answer`, {
      method: "POST",
      key: "runner",
      body: JSON.stringify({ answer: "billing" }),
    });
    expect(answered.status).toBe(200);
    expect((await untilEnded(test, LAB, job.id)).status).toBe("succeeded");
  });

  it("cancels a waiting job at once, recording who did", async () => {
    const job = (await (await start({ agent: "helpdesk/asker", input: "q" })).json()) as { id: string };
    await untilWaiting(job.id);
    const response = await test.request(`/v1/t/${LAB}/jobs/${job.id}/cancel`, {
      method: "POST",
      key: "runner",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "cancelled",
      cancelRequestedBy: actorOf("runner"),
    });
    const again = await test.request(`/v1/t/${LAB}/jobs/${job.id}/cancel`, { method: "POST", key: "runner" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("JOB_STATE_CONFLICT");
  });

  it("searches the tenant's jobs by agent address and status", async () => {
    const job = (await (await start({ agent: "helpdesk/triage", input: "search me" })).json()) as {
      id: string;
    };
    await untilEnded(test, LAB, job.id);
    const response = await test.request(
      `/v1/t/${LAB}/jobs?agent=helpdesk/triage&status=succeeded&limit=100`,
      {
        key: "viewer",
      },
    );
    expect(response.status).toBe(200);
    const { jobs } = (await response.json()) as { jobs: { id: string; agent: string; status: string }[] };
    expect(jobs.map((entry) => entry.id)).toContain(job.id);
    expect(new Set(jobs.map((entry) => `${entry.agent} ${entry.status}`))).toEqual(
      new Set(["helpdesk/triage succeeded"]),
    );
  });

  it("searches the jobs started in a period, since and until in epoch milliseconds", async () => {
    const job = (await (await start({ agent: "helpdesk/triage", input: "when" })).json()) as {
      id: string;
      createdAt: number;
    };
    const ids = async (query: string) => {
      const response = await test.request(`/v1/t/${LAB}/jobs?agent=helpdesk/triage&limit=500&${query}`, {
        key: "viewer",
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { jobs: { id: string }[] }).jobs.map((entry) => entry.id);
    };
    expect(await ids(`since=${job.createdAt}`)).toContain(job.id);
    expect(await ids(`since=${job.createdAt}&until=${job.createdAt + 1}`)).toContain(job.id);
    expect(await ids(`until=${job.createdAt}`)).not.toContain(job.id);
    expect(await ids(`since=${job.createdAt + 1}`)).not.toContain(job.id);
  });

  it("refuses with 422 INVALID_INPUT a time that is not epoch milliseconds, and a since not before until, each naming it", async () => {
    for (const query of ["since=yesterday", "until=1.5", "since=-4"]) {
      const response = await test.request(`/v1/t/${LAB}/jobs?${query}`, { key: "viewer" });
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(`${query.split("=")[0]} takes a time in epoch milliseconds`);
    }
    const response = await test.request(`/v1/t/${LAB}/jobs?since=2000&until=1000`, { key: "viewer" });
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    expect(error.message).toContain("since (1970-01-01T00:00:02.000Z) must be before until");
  });

  it("answers a job that does not exist with 404 NOT_FOUND", async () => {
    const response = await test.request(`/v1/t/${LAB}/jobs/triage-nosuchjob`, { key: "viewer" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});
