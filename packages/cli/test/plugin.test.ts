import { realpath } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { ChangeReport, PluginDetail, PluginSummary } from "@oz0/runtime";
import { openStore } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const FIXTURES = "../../runtime/test/fixtures/plugins/";
/** The default plugin every new tenant gets. */
const STD = fileURLToPath(new URL("../../../plugins/std", import.meta.url));

/** A fixture plugin folder of the runtime's tests, or the sample support-triage. */
function plugin(name: string): string {
  if (name === "support-triage")
    return fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));
  return fileURLToPath(new URL(`${FIXTURES}${name}`, import.meta.url));
}

let home: string;
let cleanup: () => Promise<void>;
let count = 0;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

/** A new tenant for one test, with `plugins` installed through the CLI. */
async function tenantWith(...plugins: string[]): Promise<string> {
  const tenant = `cli-${++count}`;
  for (const name of plugins) {
    const result = await oz0(["plugin", "install", plugin(name), "--home", home, "--tenant", tenant]);
    expect(result.stderr).toBe("");
  }
  return tenant;
}

/** Runs oz0 in `tenant` with the test's home. */
function run(tenant: string, ...args: string[]) {
  return oz0([...args, "--home", home, "--tenant", tenant]);
}

/** Every row the store keeps for `tenant`, read straight from the SQLite file. */
async function rows(tenant: string): Promise<unknown> {
  const store = await openStore({ home });
  try {
    const { db } = store;
    return {
      tenants: await db.selectFrom("tenants").selectAll().where("name", "=", tenant).execute(),
      plugins: await db
        .selectFrom("plugins")
        .selectAll()
        .where("tenant", "=", tenant)
        .orderBy("name")
        .execute(),
      parts: await db
        .selectFrom("parts")
        .selectAll()
        .where("tenant", "=", tenant)
        .orderBy("plugin")
        .orderBy("kind")
        .orderBy("name")
        .execute(),
      changes: await db.selectFrom("plugin_changes").selectAll().where("tenant", "=", tenant).execute(),
    };
  } finally {
    await store.close();
  }
}

/** Runs a command that must be refused: exit code 1, nothing on stdout, the tenant's rows unchanged. */
async function refused(tenant: string, ...args: string[]) {
  const before = await rows(tenant);
  const result = await run(tenant, ...args);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(await rows(tenant)).toEqual(before);
  return result;
}

describe("oz0 plugin install", () => {
  it("installs a plugin with agents, tools from code and skills, and lists its parts by address", async () => {
    const result = await oz0(["plugin", "install", plugin("support-triage"), "--home", home]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "installed support-triage 1.2.0 in tenant default",
        `  from ${await realpath(plugin("support-triage"))}`,
        "parts",
        "  support-triage/triage",
        "  support-triage/tickets",
        "  support-triage/tickets.assign",
        "  support-triage/tickets.lookup",
        "  support-triage/escalation",
        "",
      ].join("\n"),
    );
  });

  it("prints the report as JSON with --json, global options before or after the command", async () => {
    const tenant = `cli-${++count}`;
    const result = await oz0([
      "--home",
      home,
      "--json",
      "plugin",
      "install",
      plugin("github"),
      "--tenant",
      tenant,
    ]);
    expect(result.code).toBe(0);
    expect(result.json<ChangeReport>()).toMatchObject({
      action: "install",
      tenant,
      plugin: "github",
      version: "1.4.0",
      added: expect.arrayContaining(["github/oz0_github.get_file"]),
    });
  });

  it("selects the tenant with --tenant and creates it on its first install; default exists from the start", async () => {
    const tenant = await tenantWith("github");
    const list = await run(tenant, "plugin", "list", "--json");
    // A new tenant gets the default plugin std with its first install.
    expect(list.json<PluginSummary[]>().map((one) => one.name)).toEqual(["github", "std"]);
    const defaults = await oz0(["plugin", "list", "--home", home, "--json"]);
    expect(defaults.json<PluginSummary[]>().map((one) => one.name)).not.toContain("github");
  });

  it("refuses a tenant that does not exist for anything but an install", async () => {
    const result = await oz0(["plugin", "list", "--home", home, "--tenant", "nobody-here"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: tenant nobody-here does not exist. Installing a plugin into a tenant creates it: oz0 plugin install <dir> --tenant nobody-here.\n",
    );
  });

  it("refuses a bad plugin.yaml, naming the file, line and column", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("bad-manifest"));
    expect(result.stderr).toContain(
      "plugin.yaml:4:1: instructions: unknown key 'instructions': agent fields go under agents:, or in a file under agents/",
    );
  });

  it("gives a bad manifest's problems with their places in the --json error", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("bad-agent"), "--json");
    const { error } = JSON.parse(result.stderr) as {
      error: { code: string; data: { issues: { file: string; line: number }[] } };
    };
    expect(error.code).toBe("INVALID_MANIFEST");
    expect(error.data.issues).toEqual([
      expect.objectContaining({ file: "agents/broken.md", line: 4, column: 1 }),
    ]);
  });

  it("refuses unsafe YAML, with its line", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("unsafe-yaml"));
    expect(result.stderr).toMatch(/plugin\.yaml:3:\d+: tags such as .* are not allowed in a manifest/);
  });

  it("refuses the tool ID oz, which belongs to the built-ins", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("reserved-oz"));
    expect(result.stderr).toContain(
      "plugin.yaml:4:9: tools[0].id: the tool ID 'oz' belongs to oz0's built-ins",
    );
  });

  it("refuses a plugin whose capabilities do not match what its code registers", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("capabilities-mismatch"));
    expect(result.stderr).toContain("capabilities: lists hook, which its code never registers");
  });

  it("refuses a second agent name, naming the part and the plugin that owns it", async () => {
    const tenant = await tenantWith("support-triage");
    const result = await refused(tenant, "plugin", "install", plugin("other-triage"));
    expect(result.stderr).toBe(
      `oz0: cannot install other-triage 1.0.0 in tenant ${tenant}:\n` +
        "  - agent triage is taken: support-triage has an agent of that name (support-triage/triage)\n" +
        "Agent and flow names (one set) and tool IDs are unique in a tenant: rename the part, or remove the plugin that has it first.\n",
    );
  });

  it("refuses a flow named like another plugin's agent", async () => {
    const tenant = await tenantWith("support-triage");
    const result = await refused(tenant, "plugin", "install", plugin("triage-flows"));
    expect(result.stderr).toContain("flow triage is taken: support-triage has an agent of that name");
  });

  it("refuses a second tool ID, naming the plugin that owns it", async () => {
    const tenant = await tenantWith("support-triage");
    const result = await refused(tenant, "plugin", "install", plugin("ticket-tools"));
    expect(result.stderr).toContain(
      "tool tickets is taken: support-triage has a tool of that name (support-triage/tickets)",
    );
  });

  it("refuses a plugin whose uses: plugin is missing or outside its range, saying which", async () => {
    const tenant = await tenantWith("support-triage");
    const missing = await refused(tenant, "plugin", "install", plugin("acme-release-notes"));
    expect(missing.stderr).toContain(
      `uses: github: github is not installed in tenant ${tenant} (uses: asks for >=1.1 <2)`,
    );
    await run(tenant, "plugin", "install", plugin("github"));
    const outside = await refused(tenant, "plugin", "install", plugin("acme-needs-github-3"));
    expect(outside.stderr).toContain(
      "uses: github: github 1.4.0 is installed, outside the range uses: asks for (>=3)",
    );
  });

  it("refuses grants that name parts that do not exist", async () => {
    const tenant = await tenantWith("github");
    const result = await refused(tenant, "plugin", "install", plugin("acme-bad-grant"));
    expect(result.stderr).toContain(
      "uses: github tools oz0_github.merge_pull_request: tool oz0_github of github 1.4.0 has no function merge_pull_request",
    );
    expect(result.stderr).toContain("uses: github agents oz0-gitlab: github 1.4.0 has no agent oz0-gitlab");
    expect(result.stderr).toContain(
      "uses: github skills release-guide: github 1.4.0 has no skill release-guide",
    );
  });
});

describe("oz0 plugin update", () => {
  it("refuses an update that drops a function and an agent another installed plugin names, naming who uses it", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const result = await refused(tenant, "plugin", "update", plugin("github-renamed"));
    expect(result.stderr).toMatch(
      new RegExp(
        `^oz0: cannot update github from 1\\.4\\.0 to 1\\.5\\.0 in tenant ${tenant}: other installed plugins use`,
      ),
    );
    expect(result.stderr).toContain(
      "  - acme-release-notes, agent acme-release-notes (agents/acme-release-notes.yaml) delegation.allow github/oz0-github: github 1.5.0 has no agent oz0-github",
    );
    expect(result.stderr).toContain("or go ahead anyway with --force --reason TEXT.");
  });

  it("goes ahead with --force --reason, and records the reason for list and inspect", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const reason = "acme moves to list_pulls next week";
    const result = await run(
      tenant,
      "plugin",
      "update",
      plugin("github-renamed"),
      "--force",
      "--reason",
      reason,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("updated github 1.4.0 → 1.5.0 in tenant");
    expect(result.stdout).toContain(`forced: ${reason}`);
    expect(result.stdout).toContain(
      "  acme-release-notes loses oz0_github.list_pull_requests (uses: github tools): tool oz0_github of github 1.5.0 has no function list_pull_requests",
    );
    const [github] = (await run(tenant, "plugin", "list", "--json"))
      .json<PluginSummary[]>()
      .filter((one) => one.name === "github");
    expect(github?.forcedReason).toBe(reason);
    const inspect = await run(tenant, "plugin", "inspect", "github");
    expect(inspect.stdout).toMatch(new RegExp(`update 1\\.4\\.0 → 1\\.5\\.0  \\(forced: ${reason}\\)`));
  });

  it("refuses --force without --reason, and --reason without --force", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const force = await refused(tenant, "plugin", "update", plugin("github-renamed"), "--force");
    expect(force.stderr).toMatch(/^oz0: --force needs --reason TEXT/);
    const reason = await refused(tenant, "plugin", "update", plugin("github-renamed"), "--reason", "why");
    expect(reason.stderr).toMatch(/^oz0: --reason goes with --force/);
  });

  it("refuses an update to a version another plugin's uses: does not accept", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const result = await refused(tenant, "plugin", "update", plugin("github-2"));
    expect(result.stderr).toContain("github 2.0.0 is installed, outside the range uses: asks for (>=1.1 <2)");
  });

  it("updates a plugin nobody depends on, listing what was added and removed", async () => {
    const tenant = await tenantWith("github");
    const result = await run(tenant, "plugin", "update", plugin("github-renamed"));
    expect(result.stdout).toContain("added\n  github/pr-helper\n  github/oz0_github.list_pulls\n");
    expect(result.stdout).toContain("removed\n  github/oz0-github\n  github/oz0_github.list_pull_requests\n");
  });

  it("refuses to update a plugin that is not installed", async () => {
    const tenant = await tenantWith("support-triage");
    const result = await refused(tenant, "plugin", "update", plugin("github"));
    expect(result.stderr).toContain(
      `plugin github is not installed in tenant ${tenant}. Install it with oz0 plugin install`,
    );
  });
});

describe("oz0 plugin remove", () => {
  it("removes a plugin and its parts", async () => {
    const tenant = await tenantWith("support-triage", "github");
    const result = await run(tenant, "plugin", "remove", "github");
    expect(result.stdout).toMatch(new RegExp(`^removed github 1\\.4\\.0 from tenant ${tenant}\\n`));
    const list = await run(tenant, "plugin", "list", "--json");
    expect(list.json<PluginSummary[]>().map((one) => one.name)).toEqual(["std", "support-triage"]);
  });

  it("refuses to remove a plugin another uses, even by bare names, unless forced", async () => {
    const tenant = await tenantWith("support-triage", "escalations");
    const result = await refused(tenant, "plugin", "remove", "support-triage");
    expect(result.stderr).toContain(
      "  - escalations, agent escalate (plugin.yaml) delegation.allow triage\n",
    );
    const forced = await run(
      tenant,
      "plugin",
      "remove",
      "support-triage",
      "--force",
      "--reason",
      "retiring triage",
    );
    expect(forced.code).toBe(0);
  });

  it("refuses to remove a plugin another uses, saying which uses it and how to go on, not that it is not installed", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const result = await refused(tenant, "plugin", "remove", "github");
    expect(result.stderr).toMatch(
      new RegExp(
        `^oz0: cannot remove github 1\\.4\\.0 from tenant ${tenant}: acme-release-notes uses it:\n  - acme-release-notes, uses: github\n`,
      ),
    );
    expect(result.stderr).toContain(
      "Remove acme-release-notes first (oz0 plugin remove acme-release-notes), or update it to a version that does not use github; or go ahead anyway with --force --reason TEXT.\n",
    );
    expect(result.stderr).not.toContain("not installed");
  });
});

describe("oz0 plugin grant", () => {
  it("an install by an admin grants what its uses: asks at once and prints what it granted", async () => {
    const tenant = await tenantWith("github");
    const result = await run(tenant, "plugin", "install", plugin("acme-release-notes"));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "granted (what its uses: asks of other plugins)\n  github/oz0_github.list_pull_requests\n  github/oz0-github\n",
    );
    const json = (
      await run(tenant, "plugin", "update", plugin("acme-release-notes"), "--json")
    ).json<ChangeReport>();
    expect(json.granted).toEqual(["github/oz0_github.list_pull_requests", "github/oz0-github"]);
  });

  it("revokes a grant and grants it again, as inspect shows", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const revoked = await run(tenant, "plugin", "grant", "acme-release-notes", "--revoke");
    expect(revoked.stdout).toBe(
      [
        `revoked the grant of acme-release-notes 1.0.0's uses: in tenant ${tenant}; its parts reach no other plugin's until oz0 plugin grant acme-release-notes`,
        "  github/oz0_github.list_pull_requests",
        "  github/oz0-github",
        "",
      ].join("\n"),
    );
    const inspected = await run(tenant, "plugin", "inspect", "acme-release-notes");
    expect(inspected.stdout).toContain(
      "grant\n  none: its parts reach no other plugin's part until an admin runs oz0 plugin grant acme-release-notes\n",
    );
    expect((await run(tenant, "plugin", "grant", "acme-release-notes", "--revoke")).stdout).toBe(
      `acme-release-notes had no grant in tenant ${tenant}; nothing to revoke\n`,
    );
    const granted = await run(tenant, "plugin", "grant", "acme-release-notes");
    expect(granted.stdout).toBe(
      [
        `granted acme-release-notes 1.0.0 its uses: in tenant ${tenant}`,
        "  github/oz0_github.list_pull_requests",
        "  github/oz0-github",
        "",
      ].join("\n"),
    );
    const detail = (
      await run(tenant, "plugin", "inspect", "acme-release-notes", "--json")
    ).json<PluginDetail>();
    expect(detail.grant).toMatchObject({
      version: "1.0.0",
      uses: ["github/oz0_github.list_pull_requests", "github/oz0-github"],
    });
    expect(detail.ungranted).toEqual([]);
  });

  it("refuses to grant a plugin that is not installed", async () => {
    const tenant = await tenantWith("github");
    const result = await run(tenant, "plugin", "grant", "githb");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `oz0: plugin githb is not installed in tenant ${tenant}; did you mean github?\n`,
    );
  });
});

describe("oz0 plugin list and inspect", () => {
  it("lists the tenant's plugins with their versions, parts and folders", async () => {
    const tenant = await tenantWith("support-triage", "github");
    const result = await run(tenant, "plugin", "list");
    expect(result.stdout).toBe(
      [
        "PLUGIN          VERSION  PARTS                                  FOLDER",
        `github          1.4.0    1 agent, 1 tool, 3 functions, 1 skill  ${await realpath(plugin("github"))}`,
        `std             0.1.0    5 tools, 13 functions                  ${await realpath(STD)}`,
        `support-triage  1.2.0    1 agent, 1 tool, 2 functions, 1 skill  ${await realpath(plugin("support-triage"))}`,
        "",
      ].join("\n"),
    );
  });

  it("says so when the tenant has no plugins", async () => {
    const tenant = await tenantWith("github");
    await run(tenant, "plugin", "remove", "github");
    await run(tenant, "plugin", "remove", "std");
    expect((await run(tenant, "plugin", "list")).stdout).toBe(
      `no plugins installed in tenant ${tenant}; add one with oz0 plugin install <dir>\n`,
    );
  });

  it("inspects a plugin with its parts by address and the names a model sees", async () => {
    const tenant = await tenantWith("github", "acme-release-notes");
    const result = await run(tenant, "plugin", "inspect", "acme-release-notes");
    expect(result.stdout).toContain(
      [
        "agents",
        "  acme-release-notes/acme-release-notes  Writes release notes from the merged pull requests.",
        "    tools: github/oz0_github.list_pull_requests, oz.delegate",
        "    delegates to: github/oz0-github",
        "    tags: writing",
        "",
        "flows",
        "  acme-release-notes/weekly-notes  Release notes for the week's merged pull requests.",
        "",
        "uses",
        "  github >=1.1 <2 (1.4.0 installed): github/oz0_github.list_pull_requests, github/oz0-github",
      ].join("\n"),
    );
    const github = await run(tenant, "plugin", "inspect", "github");
    expect(github.stdout).toContain(
      "tools (function → name a model sees)\n  github/oz0_github\n    github/oz0_github.get_file → oz0_github__get_file\n",
    );
    const json = (await run(tenant, "plugin", "inspect", "github", "--json")).json<PluginDetail>();
    expect(json.skills).toEqual([
      {
        address: "github/review-guide",
        description: "How to review a pull request.",
        file: "skills/review-guide/SKILL.md",
      },
    ]);
  });

  it("refuses to inspect a plugin that is not installed", async () => {
    const tenant = await tenantWith("github");
    const result = await run(tenant, "plugin", "inspect", "githb");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `oz0: plugin githb is not installed in tenant ${tenant}; did you mean github?\n`,
    );
  });
});
