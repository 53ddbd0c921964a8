// The jobs search's period (`since`, `until`), on every store engine: the store's filter on when
// a job started, so the limit counts only jobs in the period, and a caller limited to some agents
// still gets `limit` jobs of its own. A period that is not one is refused with INVALID_INPUT
// naming what is wrong.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");
const admin = localAdmin("default", "cli:admin");
const ops: Caller = { tenant: "default", actor: "key:ops", role: "operator", agents: ["tag:ops"] };
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

describe.each(fixtures)("the jobs search's period on $label", (fixture) => {
  let home: string;
  let runtime: Runtime;
  /** Job IDs by the hour after T0 each started at: deploy (ops) at 1 and 5, payroll (hr) at 2, 3, 4, 6. */
  const started = new Map<number, string>();

  async function startAt(agent: string, hour: number): Promise<void> {
    const { id } = await runtime.services.jobs.start(admin, { agent, input: `hour ${hour}` });
    await runtime.store.db
      .updateTable("jobs")
      .set({ created_at: T0 + hour * HOUR })
      .where("id", "=", id)
      .execute();
    started.set(hour, id);
  }

  const ids = (jobs: readonly { id: string }[]) => jobs.map((job) => job.id);
  const at = (...hours: number[]) => hours.map((hour) => started.get(hour));

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "oz0-period-"));
    runtime = await Runtime.open({ home, ...(await fixture.fresh()), defaultPlugins: [] });
    await runtime.services.plugins.install(admin, SCOPED);
    for (const [agent, hour] of [
      ["scoped/deploy", 1],
      ["scoped/payroll", 2],
      ["scoped/payroll", 3],
      ["scoped/payroll", 4],
      ["scoped/deploy", 5],
      ["scoped/payroll", 6],
    ] as const) {
      await startAt(agent, hour);
    }
  });
  afterAll(async () => {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  });

  describe("since and until", () => {
    it("lists only the jobs started at or after since and before until, newest first", async () => {
      const { jobs } = runtime.services;
      expect(ids(await jobs.search(admin, { since: T0 + 3 * HOUR }))).toEqual(at(6, 5, 4, 3));
      expect(ids(await jobs.search(admin, { until: T0 + 3 * HOUR }))).toEqual(at(2, 1));
      expect(ids(await jobs.search(admin, { since: T0 + 2 * HOUR, until: T0 + 5 * HOUR }))).toEqual(
        at(4, 3, 2),
      );
      expect(ids(await jobs.search(admin, { since: T0 + 7 * HOUR }))).toEqual([]);
    });

    it("applies the limit to the jobs in the period, with the other filters", async () => {
      const { jobs } = runtime.services;
      expect(ids(await jobs.search(admin, { since: T0 + 2 * HOUR, limit: 2 }))).toEqual(at(6, 5));
      expect(
        ids(await jobs.search(admin, { agent: "scoped/payroll", until: T0 + 6 * HOUR, limit: 2 })),
      ).toEqual(at(4, 3));
    });

    it("gives a caller limited to some agents its own jobs in the period up to the limit, past newer jobs it may not see", async () => {
      const { jobs } = runtime.services;
      // Hour 5's deploy is the newest ops job before hour 7; hour 6's payroll is not ops'.
      expect(ids(await jobs.search(ops, { until: T0 + 7 * HOUR, limit: 1 }))).toEqual(at(5));
      // Before hour 5, three payroll jobs (hours 2–4) stand between it and hour 1's deploy.
      expect(ids(await jobs.search(ops, { until: T0 + 5 * HOUR, limit: 1 }))).toEqual(at(1));
      expect(ids(await jobs.search(ops, { since: T0 + 2 * HOUR, until: T0 + 5 * HOUR }))).toEqual([]);
    });

    it("refuses a since that is not before until, naming both times", async () => {
      const refused = runtime.services.jobs.search(admin, { since: T0 + 2 * HOUR, until: T0 + 2 * HOUR });
      await expect(refused).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringContaining(
          "since (2026-11-01T02:00:00.000Z) must be before until (2026-11-01T02:00:00.000Z)",
        ),
        data: { issues: [{ path: "since", message: expect.any(String) }] },
      });
    });

    it("refuses a time that is not whole epoch milliseconds, naming the field", async () => {
      for (const [field, value] of [
        ["since", -1],
        ["until", 1.5],
        ["since", Number.NaN],
      ] as const) {
        await expect(runtime.services.jobs.search(admin, { [field]: value })).rejects.toMatchObject({
          code: "INVALID_INPUT",
          data: { issues: [{ path: field, message: expect.stringContaining("epoch milliseconds") }] },
        });
      }
    });
  });
});
