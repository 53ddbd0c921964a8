// Routines on every store engine: each schedule tick fires once, missed ticks follow `missed:`,
// overlapping runs follow `overlap:`, a paused routine fires nothing, a routine's job runs as
// its identity with only its tools, a webhook is verified before it fires, and an ended job
// fires its routine once.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error, type RoutineInput } from "@oz0/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import type { JobEvent } from "../../src/jobs/index.js";
import { signWebhook } from "../../src/routines/index.js";
import { Runtime } from "../../src/runtime.js";
import type { StoreOptions } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const CLOCKWORK = join(import.meta.dirname, "../fixtures/routines/clockwork");
const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

/** A moment just past a whole second: a pass at T0 + k s is 250 ms after tick T0 + k s - 250 ms. */
const T0 = Date.parse("2026-06-01T00:00:00.250Z");
const SECOND = 1000;

async function openRuntime(options: StoreOptions): Promise<Runtime> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), "oz0-routines-")));
  return Runtime.open({
    home,
    memory: options.memory,
    databaseUrl: options.databaseUrl,
    defaultPlugins: [],
  });
}

/** A clock a test moves by hand. */
function manualClock(start = T0): { now: () => Promise<number>; set(ms: number): void } {
  let at = start;
  return {
    now: async () => at,
    set: (ms) => {
      at = ms;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe.each(fixtures)("routines on $label", (fixture) => {
  let runtime: Runtime;
  let tenants = 0;
  beforeAll(async () => {
    runtime = await openRuntime(await fixture.fresh());
  });
  afterAll(() => runtime?.close());

  /** A fresh tenant with the clockwork plugin and a tenant-level routine `r` of its summarizer. */
  async function tenantWith(routine: Partial<RoutineInput> = {}) {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const caller = localAdmin(tenant);
    await runtime.routines.add(caller, {
      name: "r",
      schedule: "* * * * * *",
      run: "clockwork/summarizer",
      ...routine,
    } as RoutineInput);
    const clock = manualClock();
    const scheduler = runtime.routines.scheduler({ clock: clock.now, tenant });
    await scheduler.pass(); // the first sight of the routine: it is due from here on
    return { tenant, caller, clock, scheduler };
  }

  async function outcomes(
    tenant: string,
  ): Promise<{ outcome: string; tick: string | null; job: string | null }[]> {
    const fires = await runtime.routines.history(localAdmin(tenant), "r", { limit: 100 });
    return fires.reverse().map((fire) => ({ outcome: fire.outcome, tick: fire.tick, job: fire.job }));
  }

  const tick = (seconds: number) => new Date(T0 - 250 + seconds * SECOND).toISOString();

  it("fires a routine once per tick, however often a scheduler passes within the tick", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ overlap: "allow" });
    for (let second = 1; second <= 3; second++) {
      clock.set(T0 + second * SECOND);
      await scheduler.pass();
      await scheduler.pass();
    }
    const fires = await outcomes(tenant);
    expect(fires.map((fire) => [fire.outcome, fire.tick])).toEqual([
      ["started", tick(1)],
      ["started", tick(2)],
      ["started", tick(3)],
    ]);
    const jobs = await runtime.jobs.search({ tenant, agent: "summarizer" });
    expect(jobs).toHaveLength(3);
  });

  it("missed: skip records the tick no scheduler reached in time and starts no job", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ schedule: "0 * * * * *", missed: "skip" });
    clock.set(T0 + 5 * 60 * SECOND + 45 * SECOND);
    await scheduler.pass();
    await scheduler.pass();
    const fires = await outcomes(tenant);
    expect(fires).toEqual([{ outcome: "missed", tick: "2026-06-01T00:05:00.000Z", job: null }]);
    expect(await runtime.jobs.search({ tenant })).toHaveLength(0);
  });

  it("missed: catch_up_last fires the last missed tick once, and none before it", async () => {
    const { tenant, clock, scheduler } = await tenantWith({
      schedule: "0 * * * * *",
      missed: "catch_up_last",
    });
    clock.set(T0 + 5 * 60 * SECOND + 45 * SECOND);
    await scheduler.pass();
    await scheduler.pass();
    const fires = await runtime.routines.history(localAdmin(tenant), "r");
    expect(fires.map((fire) => [fire.cause, fire.outcome, fire.tick])).toEqual([
      ["catch_up", "started", "2026-06-01T00:05:00.000Z"],
    ]);
    expect(await runtime.jobs.search({ tenant })).toHaveLength(1);
  });

  it("a tick reached within the grace period fires on time whatever missed: says", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ schedule: "0 * * * * *", missed: "skip" });
    clock.set(Date.parse("2026-06-01T00:01:10.000Z"));
    await scheduler.pass();
    expect((await outcomes(tenant)).map((fire) => fire.outcome)).toEqual(["started"]);
  });

  it("overlap: skip starts no job while the routine's previous job has not ended", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ overlap: "skip" });
    clock.set(T0 + SECOND);
    await scheduler.pass();
    clock.set(T0 + 2 * SECOND);
    await scheduler.pass();
    const [first] = await outcomes(tenant);
    await runtime.jobs.run(first?.job ?? "", { tenant: tenant });
    clock.set(T0 + 3 * SECOND);
    await scheduler.pass();
    expect((await outcomes(tenant)).map((fire) => [fire.outcome, fire.tick])).toEqual([
      ["started", tick(1)],
      ["skipped", tick(2)],
      ["started", tick(3)],
    ]);
  });

  it("overlap: queue keeps each tick and starts it, in order, once the previous job ended", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ overlap: "queue" });
    for (const second of [1, 2, 3]) {
      clock.set(T0 + second * SECOND);
      await scheduler.pass();
    }
    expect((await outcomes(tenant)).map((fire) => fire.outcome)).toEqual(["started", "queued", "queued"]);
    const [first] = await outcomes(tenant);
    await runtime.jobs.run(first?.job ?? "", { tenant: tenant });
    clock.set(T0 + 4 * SECOND);
    await scheduler.pass();
    const fires = await outcomes(tenant);
    expect(fires.map((fire) => [fire.outcome, fire.tick])).toEqual([
      ["started", tick(1)],
      ["started", tick(2)],
      ["queued", tick(3)],
      ["queued", tick(4)],
    ]);
    expect(new Set(fires.map((fire) => fire.job).filter((job) => job !== null)).size).toBe(2);
  });

  it("overlap: allow starts a job at every tick, ended or not", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ overlap: "allow" });
    for (const second of [1, 2, 3]) {
      clock.set(T0 + second * SECOND);
      await scheduler.pass();
    }
    expect((await outcomes(tenant)).map((fire) => fire.outcome)).toEqual(["started", "started", "started"]);
  });

  it("drops fires older than 30 days from the history, but keeps one whose job has not ended", async () => {
    const { tenant, clock, scheduler } = await tenantWith({ overlap: "skip" });
    for (const second of [1, 2]) {
      clock.set(T0 + second * SECOND);
      await scheduler.pass();
    }
    expect((await outcomes(tenant)).map((fire) => fire.outcome)).toEqual(["started", "skipped"]);
    await runtime.store.db
      .updateTable("routine_fires")
      .set({ created_at: 0 })
      .where("tenant", "=", tenant)
      .execute();
    await runtime.routines.scheduler({ clock: clock.now, tenant }).pass();
    const [kept] = await outcomes(tenant);
    expect((await outcomes(tenant)).map((fire) => fire.outcome)).toEqual(["started"]);
    await runtime.jobs.run(kept?.job ?? "", { tenant: tenant });
    await runtime.routines.scheduler({ clock: clock.now, tenant }).pass();
    expect(await outcomes(tenant)).toEqual([]);
  });

  it("a paused routine fires nothing, by schedule or by hand, and resumed it fires from then on", async () => {
    const { tenant, caller, clock, scheduler } = await tenantWith({ overlap: "allow" });
    const paused = await runtime.routines.pause(caller, "r");
    expect(paused.paused).toBe(true);
    clock.set(T0 + SECOND);
    await scheduler.pass();
    const refused = await rejection(runtime.routines.fire(caller, "r"));
    expect(isOz0Error(refused, "ROUTINE_PAUSED")).toBe(true);
    expect((refused as Error).message).toContain("oz0 routine resume r");
    expect(await outcomes(tenant)).toEqual([]);
    expect((await runtime.routines.resume(caller, "r")).paused).toBe(false);
    clock.set(T0 + 2 * SECOND);
    await scheduler.pass();
    // The tick of the paused second is not caught up.
    expect((await outcomes(tenant)).map((fire) => [fire.outcome, fire.tick])).toEqual([["started", tick(2)]]);
  });

  it("runs the routine's job as the routine's identity, with only its tools: a call outside them is refused", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const secret = await runtime.routines.secret(localAdmin(tenant), "clockwork/read-only");
    const fired = await runtime.routines.webhook(
      signed(tenant, "clockwork/read-only", secret.secret, "sweep"),
    );
    const job = await runtime.jobs.run(fired.job ?? "", { tenant: tenant });
    expect(job.status).toBe("succeeded");
    const events = await runtime.jobs.events(job.id, { tenant: tenant });
    const started = events.find((entry) => entry.kind === "job_started") as Extract<
      JobEvent,
      { kind: "job_started" }
    >;
    expect(started.data.by).toBe("routine:clockwork/read-only");
    expect(started.data.routine).toEqual({
      name: "clockwork/read-only",
      tools: ["notes.read"],
      limits: { max_turns: 5 },
    });
    const assembled = events.find((entry) => entry.kind === "context_assembled") as Extract<
      JobEvent,
      { kind: "context_assembled" }
    >;
    expect(assembled.data.functions).toEqual(["notes__read"]);
    const results = events.filter((entry) => entry.kind === "tool_result") as Extract<
      JobEvent,
      { kind: "tool_result" }
    >[];
    expect(results.map((result) => result.data.ok)).toEqual([true, false]);
    expect(JSON.stringify(results[1]?.data.error)).toContain("there is no function notes__write");
  });

  it("refuses a tenant routine whose tools are not its agent's, or whose identity outranks its author", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const base = { name: "x", event: "webhook", run: "clockwork/reporter" } as const;
    const outside = await rejection(
      runtime.routines.add(localAdmin(tenant), { ...base, tools: ["notes.read", "notes.burn"] }),
    );
    expect(isOz0Error(outside, "FORBIDDEN")).toBe(true);
    expect((outside as Error).message).toContain(
      "lists notes.burn under tools:, which clockwork/reporter may not call",
    );
    const operator = { ...localAdmin(tenant), role: "operator" as const };
    const outranks = await rejection(
      runtime.routines.add(operator, { ...base, identity: { role: "admin" } }),
    );
    expect(isOz0Error(outranks, "FORBIDDEN")).toBe(true);
    const runner = { ...localAdmin(tenant), role: "runner" as const };
    expect(isOz0Error(await rejection(runtime.routines.add(runner, base)), "FORBIDDEN")).toBe(true);
    await runtime.routines.add(localAdmin(tenant), { ...base, name: "high", identity: { role: "operator" } });
    const outranked = await rejection(runtime.routines.fire(runner, "high"));
    expect(isOz0Error(outranked, "FORBIDDEN")).toBe(true);
    expect((outranked as Error).message).toContain("which runs as an operator");
    expect(await runtime.routines.history(localAdmin(tenant), "high")).toEqual([]);
    expect(await runtime.routines.list(localAdmin(tenant))).toHaveLength(3);
  });

  it("lowers the agent's limits to the routine's: the job stops at the routine's max_turns", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    await runtime.routines.add(localAdmin(tenant), {
      name: "brief",
      event: "webhook",
      run: "clockwork/reporter",
      limits: { max_turns: 1 },
    });
    const fired = await runtime.routines.fire(localAdmin(tenant), "brief");
    const job = await runtime.jobs.run(fired.job ?? "", { tenant: tenant });
    expect(job.status).toBe("failed");
    expect(job.failure).toMatchObject({ kind: "max_turns" });
    expect(job.failure?.message).toContain("limits.max_turns (1)");
  });

  it("ends the routine's job with budget_exceeded once its model calls cost the routine's max_cost_usd", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    await runtime.models.setPrice(tenant, "test:*", { input: 1_000_000, output: 1_000_000 });
    await runtime.routines.add(localAdmin(tenant), {
      name: "thrifty",
      event: "webhook",
      run: "clockwork/reporter",
      limits: { max_cost_usd: 0.5 },
    });
    const fired = await runtime.routines.fire(localAdmin(tenant), "thrifty");
    const job = await runtime.jobs.run(fired.job ?? "", { tenant: tenant });
    expect(job.failure).toMatchObject({ kind: "budget_exceeded" });
    expect(job.failure?.message).toContain("limits.max_cost_usd ($0.5)");
  });

  it("install refuses a plugin whose routine lists a tool its agent may not call, in lint's words", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    const refused = await rejection(
      runtime.catalog.install(tenant, join(import.meta.dirname, "../fixtures/lint/oz-s028/triggers")),
    );
    expect((refused as Error).message).toContain(
      "OZ-S028 routine nightly lists oz.ask_user, which agent helper may not call",
    );
  });

  function signed(tenant: string, routine: string, secret: string, body: string, at = Date.now()) {
    const timestamp = String(Math.floor(at / 1000));
    return { tenant, routine, timestamp, body, signature: `sha256=${signWebhook(secret, timestamp, body)}` };
  }

  it("refuses a webhook with a bad signature, a stale timestamp or a replayed signature", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const routine = "clockwork/read-only";
    const unset = await rejection(runtime.routines.webhook(signed(tenant, routine, "guess", "x")));
    expect(isOz0Error(unset, "UNAUTHENTICATED")).toBe(true);
    const { secret } = await runtime.routines.secret(localAdmin(tenant), routine);
    // Stored encrypted: no row of the tenant's settings holds the secret's text.
    const settings = await runtime.store.db
      .selectFrom("settings")
      .selectAll()
      .where("tenant", "=", tenant)
      .execute();
    expect(settings.length).toBeGreaterThan(0);
    expect(JSON.stringify(settings)).not.toContain(secret.slice("whsec_".length, "whsec_".length + 16));
    const reason = async (request: ReturnType<typeof signed>) => {
      const error = await rejection(runtime.routines.webhook(request));
      expect(isOz0Error(error, "UNAUTHENTICATED")).toBe(true);
      return (error as { data: { reason: string } }).data.reason;
    };
    expect(await reason(signed(tenant, routine, "not-the-secret", "x"))).toBe("signature");
    expect(await reason({ ...signed(tenant, routine, secret, "x"), body: "y" })).toBe("signature");
    expect(await reason(signed(tenant, routine, secret, "x", Date.now() - 10 * 60 * SECOND))).toBe("stale");
    const good = signed(tenant, routine, secret, "x");
    expect((await runtime.routines.webhook(good)).outcome).toBe("started");
    expect(await reason(good)).toBe("replay");
    expect(await runtime.jobs.search({ tenant })).toHaveLength(1);
    // A new secret voids the old one.
    await runtime.routines.secret(localAdmin(tenant), routine);
    expect(await reason(signed(tenant, routine, secret, "z"))).toBe("signature");
  });

  it("passes a verified webhook through pre_sensor_event, which may rewrite what it carries or refuse it, and post_sensor_event", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const hooks = await mkdtemp(join(tmpdir(), "oz0-sensor-hooks-"));
    await writeFile(
      join(hooks, "plugin.yaml"),
      "name: gatekeeper\nversion: 1.0.0\ndescription: Checks webhooks.\nmain: index.js\ncapabilities: [hook]\n",
    );
    await writeFile(
      join(hooks, "index.js"),
      `export default {
  setup(host) {
    host.addHook({
      name: "gate",
      build: () => ({
        pre_sensor_event: (p) => {
          if (String(p.event).includes("forbidden")) {
            const error = Object.assign(new Error("no forbidden webhooks"), {
              code: "POLICY_VIOLATION", contractId: "gate", reason: "no forbidden webhooks", details: {},
            });
            throw error;
          }
          return { event: p.source + " says " + String(p.event) };
        },
        post_sensor_event: () => {
          throw new Error("the gate's log is down");
        },
      }),
    });
  },
};
`,
    );
    await runtime.catalog.install(tenant, hooks);
    const routine = "clockwork/read-only";
    const { secret } = await runtime.routines.secret(localAdmin(tenant), routine);
    const first = signed(tenant, routine, secret, "deploy done");
    const fired = await runtime.routines.webhook(first);
    expect(fired.outcome).toBe("started");
    const job = await runtime.jobs.get(fired.job ?? "", tenant);
    expect(job.input).toBe("routine:clockwork/read-only says deploy done");
    const events = await runtime.jobs.events(job.id, { tenant });
    // pre_sensor_event's checks come right after job_started; post_sensor_event's failure after them, the job not yet taken up.
    expect(events.slice(0, 3).map((entry) => [entry.kind, (entry.data as { hook?: string }).hook])).toEqual([
      ["job_started", undefined],
      ["governance_checked", "pre_sensor_event"],
      ["hook_error", "post_sensor_event"],
    ]);
    const refused = await rejection(runtime.routines.webhook(signed(tenant, routine, secret, "forbidden")));
    expect(isOz0Error(refused, "POLICY_VIOLATION")).toBe(true);
    expect(await runtime.jobs.search({ tenant })).toHaveLength(1);
  });

  it("keeps what the sensor hooks of a webhook that started no job recorded in the audit log: a refused one and a replay", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const hooks = await mkdtemp(join(tmpdir(), "oz0-sensor-records-"));
    await writeFile(
      join(hooks, "plugin.yaml"),
      "name: gatekeeper\nversion: 1.0.0\ndescription: Checks webhooks.\nmain: index.js\ncapabilities: [hook]\n",
    );
    await writeFile(
      join(hooks, "index.js"),
      `export default {
  setup(host) {
    host.addHook({
      name: "gate",
      build: () => ({
        pre_sensor_event: (p) => {
          if (String(p.event).includes("forbidden")) {
            throw Object.assign(new Error("no forbidden webhooks"), {
              code: "POLICY_VIOLATION", contractId: "gate", reason: "no forbidden webhooks", details: {},
            });
          }
        },
        post_sensor_event: (p) => {
          if (p.outcome !== "started") throw new Error("heard a " + p.outcome);
        },
      }),
    });
  },
};
`,
    );
    await runtime.catalog.install(tenant, hooks);
    const routine = "clockwork/read-only";
    const { secret } = await runtime.routines.secret(localAdmin(tenant), routine);
    await rejection(runtime.routines.webhook(signed(tenant, routine, secret, "forbidden")));
    const once = signed(tenant, routine, secret, "deploy done");
    expect((await runtime.routines.webhook(once)).outcome).toBe("started");
    await rejection(runtime.routines.webhook(once));
    const entries = await runtime.audit.list(localAdmin(tenant), { action: "hooks" });
    expect(
      entries.reverse().map((entry) => ({
        actor: entry.actor,
        target: entry.target,
        outcome: entry.detail.outcome,
        events: (entry.detail.events as { kind: string; data: { hook: string; error?: string } }[]).map(
          (event) => [event.kind, event.data.hook, event.data.error],
        ),
      })),
    ).toEqual([
      {
        actor: `routine:${routine}`,
        target: routine,
        outcome: "refused",
        events: [["governance_denied", "pre_sensor_event", undefined]],
      },
      {
        actor: `routine:${routine}`,
        target: routine,
        outcome: "duplicate",
        events: [
          ["governance_checked", "pre_sensor_event", undefined],
          ["hook_error", "post_sensor_event", "heard a duplicate"],
        ],
      },
    ]);
  });

  it("fires a job.ended routine once for each job of its agent that ended, with that job's output as input", async () => {
    const tenant = `t-${fixture.label}-${++tenants}`;
    await runtime.catalog.install(tenant, CLOCKWORK);
    const scheduler = runtime.routines.scheduler({ tenant });
    await scheduler.pass();
    const summary = await runtime.jobs.start({ tenant, agent: "clockwork/summarizer", input: "the week" });
    await scheduler.pass();
    expect(await runtime.routines.history(localAdmin(tenant), "clockwork/after-summary")).toEqual([]);
    const ended = await runtime.jobs.run(summary.id, { tenant: tenant });
    expect(ended.status).toBe("succeeded");
    await scheduler.pass();
    await scheduler.pass();
    const fires = await runtime.routines.history(localAdmin(tenant), "clockwork/after-summary");
    expect(fires.map((fire) => [fire.cause, fire.outcome])).toEqual([["job_ended", "started"]]);
    const reports = await runtime.jobs.search({ tenant, agent: "reporter" });
    expect(reports).toHaveLength(1);
    expect(reports[0]?.input).toEqual(ended.output);
  });
});

describe("several schedulers on one PostgreSQL database", () => {
  const postgres = engineFixtures().find((entry) => entry.label === "postgres");
  if (postgres === undefined) throw new Error("no PostgreSQL fixture");
  afterAll(() => postgres.dispose());

  it("find exactly one job per tick of a routine every second, with N = 4 schedulers passing at once", async () => {
    const options = await postgres.fresh();
    const home = await mkdtemp(join(tmpdir(), "oz0-routines-"));
    const runtimes = await Promise.all(
      [1, 2, 3, 4].map(() => Runtime.open({ home, databaseUrl: options.databaseUrl, defaultPlugins: [] })),
    );
    try {
      const tenant = "fleet";
      await runtimes[0]?.catalog.install(tenant, CLOCKWORK);
      await runtimes[0]?.routines.add(localAdmin(tenant), {
        name: "r",
        schedule: "* * * * * *",
        run: "clockwork/summarizer",
        overlap: "allow",
      });
      const clock = manualClock();
      const schedulers = runtimes.map((runtime) => runtime.routines.scheduler({ clock: clock.now, tenant }));
      await Promise.all(schedulers.map((scheduler) => scheduler.pass()));
      const TICKS = 10;
      for (let second = 1; second <= TICKS; second++) {
        clock.set(T0 + second * SECOND);
        // Every scheduler passes twice at once within each tick.
        await Promise.all([...schedulers, ...schedulers].map((scheduler) => scheduler.pass()));
      }
      const runtime = runtimes[0] as Runtime;
      const fires = await runtime.routines.history(localAdmin(tenant), "r", { limit: 100 });
      const ticks = fires.map((fire) => fire.tick).sort();
      expect(ticks).toEqual(
        Array.from({ length: TICKS }, (_, index) => new Date(T0 - 250 + (index + 1) * SECOND).toISOString()),
      );
      expect(fires.every((fire) => fire.outcome === "started")).toBe(true);
      const jobs = await runtime.jobs.search({ tenant, agent: "summarizer", limit: 100 });
      expect(jobs).toHaveLength(TICKS);
      expect(new Set(fires.map((fire) => fire.job))).toEqual(new Set(jobs.map((job) => job.id)));
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.close()));
    }
  });
});
