// The catalog's rules and a job through the CLI on PostgreSQL (OZ0_DATABASE_URL), as an
// operator of a shared database runs them; the other CLI suites use the embedded SQLite store.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginSummary } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, engineFixtures } from "../../runtime/test/store/engines.js";
import { oz0, tempHome } from "./run-cli.js";

const postgres = engineFixtures().filter((fixture) => fixture.label === "postgres");
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../runtime/test/fixtures/plugins/${name}`, import.meta.url));
const SUPPORT_TRIAGE = fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));

let home: string;
// Unset until the home exists: a setup that failed before then leaves nothing to remove.
let cleanup: (() => Promise<void>) | undefined;
let count = 0;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const options = await postgres[0]!.fresh();
  process.env.OZ0_DATABASE_URL = options.databaseUrl;
});
afterAll(async () => {
  delete process.env.OZ0_DATABASE_URL;
  await cleanup?.();
  await disposeFixtures(postgres);
});

function run(tenant: string, ...args: string[]) {
  return oz0([...args, "--home", home, "--tenant", tenant]);
}

async function tenantWith(...plugins: string[]): Promise<string> {
  const tenant = `pg-${++count}`;
  for (const dir of plugins) expect((await run(tenant, "plugin", "install", dir)).code).toBe(0);
  return tenant;
}

async function pluginList(tenant: string): Promise<PluginSummary[]> {
  return (await run(tenant, "--json", "plugin", "list")).json<PluginSummary[]>();
}

describe("the catalog through the CLI on PostgreSQL", () => {
  it("refuses a second agent name, naming the owner, and leaves the tenant as it was", async () => {
    const tenant = await tenantWith(SUPPORT_TRIAGE);
    const before = await pluginList(tenant);
    const result = await run(tenant, "plugin", "install", fixture("other-triage"));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "agent triage is taken: support-triage has an agent of that name (support-triage/triage)",
    );
    expect(await pluginList(tenant)).toEqual(before);
  });

  it("refuses a plugin whose uses: plugin is missing, saying which", async () => {
    const tenant = await tenantWith(SUPPORT_TRIAGE);
    const result = await run(tenant, "plugin", "install", fixture("acme-release-notes"));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`uses: github: github is not installed in tenant ${tenant}`);
  });

  it("refuses an update that drops a part another plugin uses, and records the reason when forced", async () => {
    const tenant = await tenantWith(fixture("github"), fixture("acme-release-notes"));
    const refused = await run(tenant, "plugin", "update", fixture("github-renamed"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("other installed plugins use");
    const forced = await run(
      tenant,
      "plugin",
      "update",
      fixture("github-renamed"),
      "--force",
      "--reason",
      "moving on",
    );
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("forced: moving on");
  });

  it("checks an address against its owner before starting a job, with the spec's message", async () => {
    const tenant = await tenantWith(SUPPORT_TRIAGE, fixture("github"));
    const result = await run(tenant, "run", "github/triage", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: github/triage is not an agent of github: triage is support-triage's\n");
  });

  it("runs the sample agent with its tools to success, and traces it", async () => {
    const tenant = await tenantWith(SUPPORT_TRIAGE);
    const result = await run(tenant, "--json", "run", "support-triage/triage", "ticket 7");
    const job = result.json<{ id: string; status: string; output: unknown }>();
    expect(job).toMatchObject({ status: "succeeded", output: "billing" });
    const trace = await run(tenant, "--json", "job", "trace", job.id);
    const kinds = trace.json<{ kind: string }[]>().map((event) => event.kind);
    expect(kinds.filter((kind) => kind === "tool_result")).toHaveLength(2);
    expect(kinds.at(-1)).toBe("job_succeeded");
    // Everything went to PostgreSQL: no SQLite file was made in the home.
    expect(existsSync(join(home, "oz0.db"))).toBe(false);
  });
});
