// Which handlers apply to a job: those of every plugin installed in the job's tenant, each with
// its config in the tenant (its admin defaults, under the setting plugin.<name>.config).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { pluginConfigKey } from "../../src/plugin-config/index.js";
import { Runtime } from "../../src/runtime.js";
import { ofKind } from "../jobs/helpers.js";
import { governance } from "./helpers.js";

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));

let runtime: Runtime;
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-hooks-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.catalog.install("default", fixture("jobs/helpdesk"));
  await runtime.catalog.install("default", fixture("hooks/gatekeeper"));
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

async function triage(): Promise<JobEvent[]> {
  const started = await runtime.jobs.start({
    tenant: "default",
    agent: "helpdesk/triage",
    input: "ticket 7",
  });
  const job = await runtime.jobs.run(started.id, { tenant: started.tenant });
  return runtime.jobs.events(job.id, { tenant: job.tenant });
}

describe("the hooks a job runs with", () => {
  test("are those of every plugin installed in the tenant, not only the agent's own", async () => {
    const events = await triage();
    expect(governance(events)).toContainEqual({
      kind: "governance_checked",
      data: { hook: "pre_tool_call", checks_passed: 1, outcome: "allowed" },
    });
  });

  test("get their plugin's config in the tenant from the setting plugin.<name>.config", async () => {
    await runtime.store.db
      .insertInto("settings")
      .values({
        tenant: "default",
        key: pluginConfigKey("gatekeeper"),
        value: JSON.stringify({ blocked: ["assign"] }),
        updated_at: Date.now(),
      })
      .execute();
    const events = await triage();
    expect(governance(events)).toContainEqual({
      kind: "governance_denied",
      data: {
        hook: "pre_tool_call",
        plugin: "gatekeeper",
        contract_id: "gate",
        reason: "assign is blocked in this tenant",
        details: { function: "assign" },
        handler: "gate",
      },
    });
    const results = ofKind(events, "tool_result").map((entry) => entry.data.ok);
    expect(results).toEqual([true, false]);
  });

  test("do not reach another tenant's jobs", async () => {
    await runtime.catalog.install("other", fixture("jobs/helpdesk"));
    const started = await runtime.jobs.start({
      tenant: "other",
      agent: "helpdesk/triage",
      input: "ticket 7",
    });
    const job = await runtime.jobs.run(started.id, { tenant: started.tenant });
    expect(governance(await runtime.jobs.events(job.id, { tenant: job.tenant }))).toEqual([]);
  });
});
