// oz0 records: what a plugin's tool keeps with ctx.records, read by the tenant's operators,
// held, kept for a kind's retention, and erased by subject, job histories included.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const FIXTURE = join(import.meta.dirname, "fixtures/records");
let home: string;
let cleanup: () => Promise<void>;
const cli = (args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const installed = await cli(["plugin", "install", FIXTURE]);
  if (installed.code !== 0) throw new Error(installed.stderr);
});
afterAll(() => cleanup());

async function saveAda(): Promise<string> {
  const ran = await cli(["run", "crm/clerk", "save Ada", "--json"]);
  expect(ran.code).toBe(0);
  return ran.json<{ id: string }>().id;
}

describe("oz0 records", () => {
  it("shows the records a tool kept with ctx.records, each put a new version", async () => {
    await saveAda();
    await saveAda();
    const list = await cli(["records", "list", "--json"]);
    expect(list.json()).toEqual([
      expect.objectContaining({
        plugin: "crm",
        kind: "contact",
        key: "ada",
        version: 2,
        subject: "person:ada",
        value: { name: "Ada Lovelace", email: "ada@example.org" },
      }),
    ]);
    const first = await cli(["records", "get", "crm/contact", "ada", "--at", "1"]);
    expect(first.stdout).toMatch(/^crm\/contact ada · version 1 · \S+ · about person:ada\n/);
    expect(
      (await cli(["records", "history", "crm/contact", "ada", "--json"])).json<unknown[]>(),
    ).toHaveLength(2);
    const missing = await cli(["records", "get", "crm/contact", "bo"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("there is no record crm/contact/bo");
  });

  it("refuses to erase what a legal hold covers, then erases every version and scrubs the job's history", async () => {
    const job = await saveAda();
    const held = await cli(["records", "hold", "--subject", "person:ada", "--reason", "case 42", "--json"]);
    const hold = held.json<{ id: string }>().id;
    const refused = await cli(["records", "erase", "--subject", "person:ada"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`under legal hold (${hold}: case 42); nothing was erased`);
    expect((await cli(["records", "release", hold])).stdout).toBe(
      `hold ${hold} on the records about person:ada released\n`,
    );
    const erased = await cli(["records", "erase", "--subject", "person:ada"]);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(
      /^erased 3 versions of 1 record about person:ada; \d+ history events in 3 jobs now say \[erased\] in their place\n$/,
    );
    expect((await cli(["records", "list", "--json"])).json()).toEqual([]);
    const trace = await cli(["job", "trace", job, "--json"]);
    expect(trace.stdout).not.toContain("Ada Lovelace");
    expect(trace.stdout).not.toContain("ada@example.org");
    expect(trace.stdout).toContain("[erased]");
    const got = await cli(["job", "get", job, "--json"]);
    expect(got.stdout).not.toContain("Ada Lovelace");
    const audit = await cli(["audit", "list", "--json"]);
    expect(audit.stdout).toContain("records.erase");
    expect(audit.stdout).toContain("subject:person:ada");
  });

  it("sets and clears a kind's retention, and refuses a kind that is not <plugin>/<kind>", async () => {
    const set = await cli(["records", "retention", "set", "crm/contact", "30"]);
    expect(set.stdout).toMatch(/^KIND\s+DAYS\s+SET BY\ncrm\/contact\s+30\s+\S+\n$/);
    const cleared = await cli(["records", "retention", "clear", "crm/contact"]);
    expect(cleared.stdout).toBe("no retention set: every record is kept until erased\n");
    const bad = await cli(["records", "retention", "set", "contact", "30"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("contact is not a record kind's address; give <plugin>/<kind>");
  });
});
