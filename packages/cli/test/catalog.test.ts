import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

function plugin(name: string): string {
  if (name === "support-triage")
    return fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));
  return fileURLToPath(new URL(`../../runtime/test/fixtures/plugins/${name}`, import.meta.url));
}

let home: string;
let cleanup: () => Promise<void>;
const tenant = "shown";

/** Runs oz0 in the test's tenant and home. */
function run(...args: string[]) {
  return oz0([...args, "--home", home, "--tenant", tenant]);
}

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  for (const name of ["support-triage", "github", "escalations"]) {
    const result = await run("plugin", "install", plugin(name));
    expect(result.stderr).toBe("");
  }
  // A new tenant comes with std; this catalog shows only the plugins above.
  expect((await run("plugin", "remove", "std")).code).toBe(0);
});
afterAll(() => cleanup());

describe("oz0 catalog", () => {
  it("lists every agent, flow, tool, function and skill of the tenant by address", async () => {
    const result = await run("catalog");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "agents",
        "  escalations/escalate   Escalates a ticket to a person.",
        "  github/oz0-github      Answers questions about a repository's pull requests. [github]",
        "  support-triage/triage  Sorts a ticket into a queue. [support]",
        "",
        "tools",
        "  github/oz0_github       GitHub's pull requests and files.",
        "  support-triage/tickets  Ticket store.",
        "",
        "functions (address → name a model sees)",
        "  github/oz0_github.get_file → oz0_github__get_file                      Read a file at a commit.",
        "  github/oz0_github.get_pull_request → oz0_github__get_pull_request      Get one pull request.",
        "  github/oz0_github.list_pull_requests → oz0_github__list_pull_requests  List a repository's pull requests.",
        "  support-triage/tickets.assign → tickets__assign                        Put a ticket in a queue.",
        "  support-triage/tickets.lookup → tickets__lookup                        Look a ticket up by id.",
        "",
        "skills",
        "  github/review-guide        How to review a pull request.",
        "  support-triage/escalation  When and how to escalate a ticket to a person.",
        "",
      ].join("\n"),
    );
  });

  it("prints the entries as JSON with --json", async () => {
    const entries = (await run("catalog", "--json")).json<CatalogEntry[]>();
    expect(entries.find((entry) => entry.address === "support-triage/triage")).toEqual({
      kind: "agent",
      address: "support-triage/triage",
      plugin: "support-triage",
      name: "triage",
      description: "Sorts a ticket into a queue.",
      tags: ["support"],
      modelName: null,
      clash: false,
    });
  });

  it("lists only the agents with a tag when asked", async () => {
    expect((await run("catalog", "--tag", "github")).stdout).toBe(
      "agents\n  github/oz0-github  Answers questions about a repository's pull requests. [github]\n",
    );
    expect((await run("catalog", "--tag", "nothing")).stdout).toBe(
      `no agent in tenant ${tenant} has the tag nothing\n`,
    );
  });

  it("looks one part up by address", async () => {
    expect((await run("catalog", "support-triage/tickets.lookup")).stdout).toBe(
      "support-triage/tickets.lookup (function)\n  Look a ticket up by id.\n  a model sees it as tickets__lookup\n",
    );
    const json = (await run("catalog", "github/review-guide", "--json")).json<
      CatalogEntry & { bare: boolean }
    >();
    expect(json).toMatchObject({ kind: "skill", address: "github/review-guide", bare: false });
  });

  it("reports a bare name of a part with the address to write", async () => {
    expect((await run("catalog", "triage")).stdout).toBe(
      "support-triage/triage (agent)\n  Sorts a ticket into a queue.\n  tags: support\n  named without its plugin; its address is support-triage/triage\n",
    );
  });

  it("refuses an address that names another plugin, with the owner the store knows", async () => {
    const result = await run("catalog", "github/triage");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: github/triage is not an agent of github: triage is support-triage's\n");
    const json = await run("catalog", "github/tickets.lookup", "--json");
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: "OWNER_MISMATCH",
        message: "github/tickets.lookup is not a function of github: tickets.lookup is support-triage's",
        data: { address: "github/tickets.lookup", owner: "support-triage" },
        side: "user",
        status: 400,
        retryable: false,
      },
    });
  });

  it("says a name does not exist, of the kind asked for", async () => {
    const result = await run("catalog", "support-triage/triag", "--kind", "agent");
    expect(result.stderr).toBe(
      `oz0: no agent support-triage/triag in tenant ${tenant}; did you mean support-triage/triage?\n`,
    );
    const any = await run("catalog", "github/nothing");
    expect(any.stderr).toBe(`oz0: no agent, flow, tool or skill github/nothing in tenant ${tenant}\n`);
  });

  it("refuses a tenant that does not exist", async () => {
    const result = await oz0(["catalog", "--home", home, "--tenant", "nobody"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: tenant nobody does not exist\./);
  });
});
