import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { DEFAULT_TENANT, openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { plugin, refusal, tenantRows, writePast } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("installing plugins on $label", (fixture) => {
  let store: Store;
  let catalog: Catalog;
  let count = 0;
  // Each test works in a tenant of its own, so one database serves the whole suite.
  const newTenant = () => `tenant-${++count}`;

  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    catalog = new Catalog(store, tmpdir());
  });
  afterAll(() => store.close());

  /** Installs into a new tenant and returns it. */
  async function tenantWith(...plugins: string[]): Promise<string> {
    const tenant = newTenant();
    for (const name of plugins) await catalog.install(tenant, plugin(name));
    return tenant;
  }

  /** Runs `work`, expects it refused with `code`, and checks the tenant's rows did not change. */
  async function refusedUnchanged(
    tenant: string,
    work: () => Promise<unknown>,
    code: Parameters<typeof refusal>[1],
  ) {
    const before = await tenantRows(store, tenant);
    const error = await refusal(work(), code);
    expect(await tenantRows(store, tenant)).toEqual(before);
    return error;
  }

  describe("tenants", () => {
    it("has the default tenant from the start", async () => {
      expect(await catalog.list(DEFAULT_TENANT)).toEqual([]);
    });

    it("creates a tenant with its first install", async () => {
      await catalog.install("acme-corp", plugin("github"));
      expect((await catalog.list("acme-corp")).map((one) => one.name)).toEqual(["github"]);
    });

    it("keeps tenants apart: a plugin installed in one is not in another", async () => {
      const one = await tenantWith("support-triage");
      const other = await tenantWith("github");
      expect((await catalog.list(one)).map((p) => p.name)).toEqual(["support-triage"]);
      expect((await catalog.list(other)).map((p) => p.name)).toEqual(["github"]);
      // The same agent name in two tenants is no clash.
      await catalog.install(other, plugin("other-triage"));
    });

    it("refuses to read a tenant that does not exist, saying how to create one", async () => {
      const error = await refusal(catalog.list("nobody-here"), "NOT_FOUND");
      expect(error.message).toBe(
        "tenant nobody-here does not exist. Installing a plugin into a tenant creates it: oz0 plugin install <dir> --tenant nobody-here.",
      );
      expect(error.data).toEqual({ kind: "tenant", name: "nobody-here" });
    });

    it("refuses a tenant name that breaks the name rules", async () => {
      const error = await refusal(catalog.install("Acme Corp", plugin("github")), "INVALID_NAME");
      expect(error.message).toMatch(/^tenant name/);
      expect(error.data).toEqual({ kind: "tenant", name: "Acme Corp" });
    });
  });

  describe("a plugin with agents, tools from code and skills", () => {
    it("installs, records its version and real folder, and lists its parts by address", async () => {
      const tenant = newTenant();
      const report = await catalog.install(tenant, `${plugin("github")}/../github`);
      expect(report).toMatchObject({
        action: "install",
        tenant,
        plugin: "github",
        version: "1.4.0",
        previousVersion: null,
        dir: await realpath(plugin("github")),
        forcedReason: null,
        removed: [],
        overridden: [],
      });
      expect(report.added).toEqual([
        "github/oz0-github",
        "github/oz0_github",
        "github/oz0_github.get_file",
        "github/oz0_github.get_pull_request",
        "github/oz0_github.list_pull_requests",
        "github/review-guide",
      ]);
      const [listed] = await catalog.list(tenant);
      expect(listed).toMatchObject({
        name: "github",
        version: "1.4.0",
        dir: await realpath(plugin("github")),
        parts: { agent: 1, flow: 0, tool: 1, function: 3, skill: 1 },
      });
    });

    it("refuses a second install of a plugin, pointing to update", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("github-2")),
        "ALREADY_INSTALLED",
      );
      expect(error.message).toBe(
        `github 1.4.0 is already installed in tenant ${tenant}; to replace it with 2.0.0 from ${plugin("github-2")}, run oz0 plugin update ${plugin("github-2")}`,
      );
    });
  });

  describe("bad plugin folders", () => {
    it("refuses a bad plugin.yaml with the file, line and column of the problem", async () => {
      const tenant = await tenantWith("github");
      const dir = plugin("bad-manifest");
      const error = await refusedUnchanged(tenant, () => catalog.install(tenant, dir), "INVALID_MANIFEST");
      expect(error.message).toContain(
        "plugin.yaml:4:1: instructions: unknown key 'instructions': agent fields go under agents:, or in a file under agents/",
      );
      expect(error.message.startsWith(`${dir}: `)).toBe(true);
      expect(error.data?.issues).toEqual([
        expect.objectContaining({ file: "plugin.yaml", line: 4, column: 1 }),
      ]);
    });

    it("refuses a bad agent file with its file and line", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("bad-agent")),
        "INVALID_MANIFEST",
      );
      expect(error.message).toContain("agents/broken.md:4:1: temperature: unknown key 'temperature'");
    });

    it("refuses YAML constructs unsafe for untrusted input, with the line", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("unsafe-yaml")),
        "UNSAFE_YAML",
      );
      expect(error.message).toMatch(/plugin\.yaml:3:\d+: tags such as .* are not allowed/);
    });

    it("refuses the tool ID oz, which belongs to the built-ins", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("reserved-oz")),
        "INVALID_MANIFEST",
      );
      expect(error.message).toContain(
        "plugin.yaml:4:9: tools[0].id: the tool ID 'oz' belongs to oz0's built-ins; choose another",
      );
    });

    it("refuses a plugin whose declared capabilities do not match what its code registers", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("capabilities-mismatch")),
        "INVALID_PLUGIN",
      );
      expect(error.message).toContain("capabilities: lists hook, which its code never registers");
    });

    it("refuses a folder that is not a plugin, and leaves a new tenant uncreated", async () => {
      const tenant = newTenant();
      await refusal(catalog.install(tenant, plugin("no-such-plugin")), "INVALID_PLUGIN");
      await refusal(catalog.list(tenant), "NOT_FOUND");
    });
  });

  describe("uniqueness", () => {
    it("refuses an install that adds a second agent name, naming the part and the plugin that owns it", async () => {
      const tenant = await tenantWith("support-triage");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("other-triage")),
        "NAME_TAKEN",
      );
      expect(error.message).toBe(
        `cannot install other-triage 1.0.0 in tenant ${tenant}:\n` +
          "  - agent triage is taken: support-triage has an agent of that name (support-triage/triage)\n" +
          "Agent and flow names (one set) and tool IDs are unique in a tenant: rename the part, or remove the plugin that has it first.",
      );
      expect(error.data).toEqual({
        tenant,
        plugin: "other-triage",
        taken: [{ kind: "agent", name: "triage", owner: "support-triage" }],
      });
    });

    it("refuses a flow named like another plugin's agent: agents and flows share one set of names", async () => {
      const tenant = await tenantWith("support-triage");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("triage-flows")),
        "NAME_TAKEN",
      );
      expect(error.message).toContain(
        "flow triage is taken: support-triage has an agent of that name (support-triage/triage)",
      );
    });

    it("refuses an install that adds a second tool ID, naming the plugin that owns it", async () => {
      const tenant = await tenantWith("support-triage");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("ticket-tools")),
        "NAME_TAKEN",
      );
      expect(error.message).toContain(
        "tool tickets is taken: support-triage has a tool of that name (support-triage/tickets)",
      );
    });

    it("checks names only once another change to the tenant has committed", async () => {
      const tenant = await tenantWith("github");
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // Another process's change, not yet committed: it adds an agent named triage.
      const other = store.transaction(async (trx) => {
        if (store.engine === "postgres") {
          await sql`select name from tenants where name = ${tenant} for update`.execute(trx);
        }
        await writePast(trx, tenant, "other-triage", [{ kind: "agent", name: "triage" }]);
        locked();
        await held;
      });
      await holding;
      const installing = catalog.install(tenant, plugin("support-triage"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await other;
      await refusal(installing, "NAME_TAKEN");
    });
  });

  describe("uses:", () => {
    it('installs a plugin when the version its uses: asks for (">=1.1, <2") is installed', async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const detail = await catalog.inspect(tenant, "acme-release-notes");
      expect(detail.uses).toEqual([
        {
          plugin: "github",
          version: ">=1.1 <2",
          installed: "1.4.0",
          tools: ["github/oz0_github.list_pull_requests"],
          agents: ["github/oz0-github"],
          skills: [],
        },
      ]);
    });

    it("refuses a plugin whose uses: plugin is not installed", async () => {
      const tenant = await tenantWith("support-triage");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("acme-release-notes")),
        "USES_UNSATISFIED",
      );
      expect(error.message).toContain(
        `  - uses: github: github is not installed in tenant ${tenant} (uses: asks for >=1.1 <2)`,
      );
    });

    it("refuses a plugin whose uses: range the installed version is outside of", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("acme-needs-github-3")),
        "USES_UNSATISFIED",
      );
      expect(error.message).toBe(
        `cannot install acme-needs-github-3 1.0.0 in tenant ${tenant}: 1 thing it uses is missing:\n` +
          "  - uses: github: github 1.4.0 is installed, outside the range uses: asks for (>=3)\n" +
          "Install or update the plugins it uses first, or change what the plugin names.",
      );
    });

    it("refuses grants that name parts the used plugin does not have, saying which", async () => {
      const tenant = await tenantWith("github");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("acme-bad-grant")),
        "USES_UNSATISFIED",
      );
      expect(error.data?.problems).toEqual([
        {
          where: "uses: github tools",
          reference: "oz0_github.merge_pull_request",
          problem: "tool oz0_github of github 1.4.0 has no function merge_pull_request",
        },
        {
          where: "uses: github agents",
          reference: "oz0-gitlab",
          problem: "github 1.4.0 has no agent oz0-gitlab",
        },
        {
          where: "uses: github skills",
          reference: "release-guide",
          problem: "github 1.4.0 has no skill release-guide",
        },
      ]);
    });

    it("refuses an agent that names a function its own tool does not have", async () => {
      const tenant = newTenant();
      const error = await refusal(catalog.install(tenant, plugin("typo-reference")), "USES_UNSATISFIED");
      expect(error.message).toContain(
        "  - agent note-taker (plugin.yaml) tools notes.wirte: tool notes of typo-reference 1.0.0 has no function wirte",
      );
    });

    it("refuses an address whose plugin does not own the part, naming the owner", async () => {
      const tenant = await tenantWith("github", "support-triage");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("wrong-owner")),
        "USES_UNSATISFIED",
      );
      expect(error.message).toContain(
        "agent misdirected (plugin.yaml) tools github/tickets.lookup: github/tickets.lookup is not a function of github: tickets.lookup is support-triage's",
      );
    });

    it("accepts a bare name of another plugin's part, since names are unique in a tenant", async () => {
      const tenant = await tenantWith("support-triage", "escalations");
      expect((await catalog.list(tenant)).map((one) => one.name)).toEqual(["escalations", "support-triage"]);
    });
  });

  describe("all or nothing", () => {
    it("leaves the tenant exactly as it was when a write fails halfway", async () => {
      const tenant = await tenantWith("github");
      await failInsertsOfPart(store, "review-guide");
      try {
        const before = await tenantRows(store, tenant);
        await expect(catalog.update(tenant, plugin("github-2"))).rejects.toThrow(/review-guide refused/);
        expect(await tenantRows(store, tenant)).toEqual(before);
        const fresh = newTenant();
        await expect(catalog.install(fresh, plugin("github"))).rejects.toThrow(/review-guide refused/);
        await refusal(catalog.list(fresh), "NOT_FOUND");
      } finally {
        await allowInsertsOfParts(store);
      }
    });
  });
});

/** A trigger that fails any insert of a part named `name`, after the rows before it were written. */
async function failInsertsOfPart(store: Store, name: string): Promise<void> {
  if (store.engine === "sqlite") {
    await sql
      .raw(
        `create trigger refuse_part before insert on parts when new.name = '${name}' ` +
          `begin select raise(abort, '${name} refused'); end`,
      )
      .execute(store.db);
    return;
  }
  await sql
    .raw(
      `create function refuse_part() returns trigger language plpgsql as $$ begin ` +
        `if new.name = '${name}' then raise exception '${name} refused'; end if; return new; end $$`,
    )
    .execute(store.db);
  await sql
    .raw("create trigger refuse_part before insert on parts for each row execute function refuse_part()")
    .execute(store.db);
}

async function allowInsertsOfParts(store: Store): Promise<void> {
  if (store.engine === "sqlite") {
    await sql.raw("drop trigger refuse_part").execute(store.db);
    return;
  }
  await sql.raw("drop trigger refuse_part on parts").execute(store.db);
  await sql.raw("drop function refuse_part()").execute(store.db);
}
