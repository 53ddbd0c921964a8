// An update that asks more of an agent's callers (a new failure kind, a failure flag turned on)
// without a new major version is refused unless forced with a reason; what asks less, or comes
// with a new major version, goes through.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { contractBreaks, isNewMajor } from "../../src/lint/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { refusal, tenantRows } from "./helpers.js";

interface Failure {
  kind: string;
  retryable?: boolean;
  partial?: boolean;
  person?: boolean;
}

let root: string;
let store: Store;
let catalog: Catalog;
let count = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "oz0-contract-"));
  store = await openStore({ memory: true });
  catalog = new Catalog(store, root);
});
afterAll(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

/** A plugin folder `sorting` at `version` whose agent sorter declares `failures`. */
async function sorting(version: string, failures: Failure[]): Promise<string> {
  const dir = join(root, `sorting-${++count}`);
  await mkdir(dir);
  const declared = failures.map((failure) => ({ description: `When ${failure.kind}.`, ...failure }));
  await writeFile(
    join(dir, "plugin.yaml"),
    [
      "name: sorting",
      `version: ${version}`,
      "agents:",
      "  - name: sorter",
      "    description: Sorts tickets.",
      "    tools: [oz.fail]",
      "    skills: []",
      "    input: text",
      "    output: text",
      `    failures: ${JSON.stringify(declared)}`,
      "",
    ].join("\n"),
  );
  return dir;
}

async function tenantWith(version: string, failures: Failure[]): Promise<string> {
  const tenant = `tenant-${++count}`;
  await catalog.install(tenant, await sorting(version, failures));
  return tenant;
}

describe("an update that changes an agent's failure contract", () => {
  it("refuses a new failure kind without a new major version, naming the agent and the kind, and changes nothing", async () => {
    const tenant = await tenantWith("1.2.0", [{ kind: "no_queue" }]);
    const before = await tenantRows(store, tenant);
    const dir = await sorting("1.3.0", [{ kind: "no_queue" }, { kind: "queue_full", retryable: true }]);
    const error = await refusal(catalog.update(tenant, dir), "BREAKING_CHANGE");
    expect(error.message).toBe(
      `cannot update sorting from 1.2.0 to 1.3.0 in tenant ${tenant}: it asks more of its agents' callers without a new major version:\n` +
        "  - agent sorting/sorter adds the failure kind queue_full\n" +
        "Callers branch on an agent's failure kinds and flags: release this as 2.0.0, or go ahead anyway with --force --reason TEXT.",
    );
    expect(error.data).toEqual({
      tenant,
      plugin: "sorting",
      from: "1.2.0",
      to: "1.3.0",
      breaks: [{ agent: "sorter", kind: "queue_full", change: "kind" }],
    });
    expect(await tenantRows(store, tenant)).toEqual(before);
  });

  it("refuses a flag turned on, each flag by name", async () => {
    const tenant = await tenantWith("1.2.0", [{ kind: "no_queue" }]);
    const dir = await sorting("1.2.1", [{ kind: "no_queue", retryable: true, partial: true, person: true }]);
    const error = await refusal(catalog.update(tenant, dir), "BREAKING_CHANGE");
    expect(error.message).toContain(
      "  - agent sorting/sorter turns on retryable for its failure kind no_queue (retryable: false → true)\n" +
        "  - agent sorting/sorter turns on partial for its failure kind no_queue (partial: false → true)\n" +
        "  - agent sorting/sorter turns on person for its failure kind no_queue (person: false → true)\n",
    );
  });

  it("goes ahead with --force and a reason, reporting what it went past", async () => {
    const tenant = await tenantWith("1.2.0", []);
    const dir = await sorting("1.3.0", [{ kind: "queue_full" }]);
    const report = await catalog.update(tenant, dir, { force: true, reason: "no caller branches yet" });
    expect(report.contractBreaks).toEqual([{ agent: "sorter", kind: "queue_full", change: "kind" }]);
    expect(report.forcedReason).toBe("no caller branches yet");
  });

  it("lets through a new major version, a kind dropped and a flag turned off", async () => {
    const tenant = await tenantWith("1.2.0", [{ kind: "no_queue", retryable: true }, { kind: "old" }]);
    const fewer = await catalog.update(tenant, await sorting("1.2.1", [{ kind: "no_queue" }]));
    expect(fewer.contractBreaks).toEqual([]);
    const major = await catalog.update(tenant, await sorting("2.0.0", [{ kind: "no_queue", person: true }]));
    expect(major).toMatchObject({ version: "2.0.0", contractBreaks: [] });
  });

  it("reads a 0.x minor as a new major version, as npm's ^ ranges do", () => {
    expect(isNewMajor("0.3.1", "0.4.0")).toBe(true);
    expect(isNewMajor("0.3.1", "0.3.2")).toBe(false);
    expect(isNewMajor("1.9.0", "1.10.0")).toBe(false);
    expect(isNewMajor("2.0.0", "1.0.0")).toBe(false);
    const before = { version: "0.3.1", agents: [{ name: "a", failures: [] }] };
    expect(
      contractBreaks(before, { version: "0.3.2", agents: [{ name: "a", failures: [{ kind: "x" }] }] }),
    ).toEqual([{ agent: "a", kind: "x", change: "kind" }]);
  });
});
