import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog, type PartRef } from "../../src/catalog/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { plugin, refusal, writePast } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("the owner check on $label", (fixture) => {
  let store: Store;
  let catalog: Catalog;
  let count = 0;
  /** support-triage, github, escalations, acme-release-notes, files and reviews, installed once. */
  let tenant: string;

  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    catalog = new Catalog(store, tmpdir());
    tenant = await tenantWith(
      "support-triage",
      "github",
      "escalations",
      "acme-release-notes",
      "files",
      "reviews",
    );
  });
  afterAll(() => store.close());

  async function tenantWith(...plugins: string[]): Promise<string> {
    const name = `tenant-${++count}`;
    for (const one of plugins) await catalog.install(name, plugin(one));
    return name;
  }

  it("resolves an address to its owner and gives the bare name jobs carry", async () => {
    expect(await catalog.resolvePart(tenant, "agent", "support-triage/triage")).toEqual({
      kind: "agent",
      plugin: "support-triage",
      name: "triage",
      address: "support-triage/triage",
      bare: false,
    });
    expect(await catalog.resolvePart(tenant, "function", "github/oz0_github.get_file")).toEqual({
      kind: "function",
      plugin: "github",
      name: "oz0_github.get_file",
      address: "github/oz0_github.get_file",
      bare: false,
    });
    expect(await catalog.resolvePart(tenant, "tool", "support-triage/tickets")).toMatchObject({
      kind: "tool",
      name: "tickets",
    });
    expect(await catalog.resolvePart(tenant, "skill", "github/review-guide")).toMatchObject({
      plugin: "github",
      name: "review-guide",
    });
  });

  it("refuses an address that names another plugin, with the owner the store knows", async () => {
    const agent = await refusal(catalog.resolvePart(tenant, "agent", "github/triage"), "OWNER_MISMATCH");
    expect(agent.message).toBe("github/triage is not an agent of github: triage is support-triage's");
    expect(agent.data).toEqual({ address: "github/triage", owner: "support-triage" });
    const fn = await refusal(
      catalog.resolvePart(tenant, "function", "github/tickets.lookup"),
      "OWNER_MISMATCH",
    );
    expect(fn.message).toBe(
      "github/tickets.lookup is not a function of github: tickets.lookup is support-triage's",
    );
    const tool = await refusal(catalog.resolvePart(tenant, "tool", "github/tickets"), "OWNER_MISMATCH");
    expect(tool.message).toBe("github/tickets is not a tool of github: tickets is support-triage's");
    const skill = await refusal(
      catalog.resolvePart(tenant, "skill", "support-triage/review-guide"),
      "NOT_FOUND",
    );
    expect(skill.message).toBe(`no skill support-triage/review-guide in tenant ${tenant}`);
  });

  it("resolves a bare name of another plugin's part, and reports it as bare", async () => {
    expect(await catalog.resolvePart(tenant, "agent", "triage", { fromPlugin: "escalations" })).toEqual({
      kind: "agent",
      plugin: "support-triage",
      name: "triage",
      address: "support-triage/triage",
      bare: true,
    });
    expect(
      await catalog.resolvePart(tenant, "function", "tickets.lookup", { fromPlugin: "escalations" }),
    ).toMatchObject({ address: "support-triage/tickets.lookup", bare: true });
    // A bare name inside its own plugin is the right way to write it, not something to report.
    expect(
      await catalog.resolvePart(tenant, "agent", "triage", { fromPlugin: "support-triage" }),
    ).toMatchObject({
      bare: false,
    });
  });

  it("resolves a bare skill to the caller's own plugin first, and asks for an address when two plugins have it", async () => {
    expect(
      await catalog.resolvePart(tenant, "skill", "review-guide", { fromPlugin: "reviews" }),
    ).toMatchObject({
      address: "reviews/review-guide",
      bare: false,
    });
    const error = await refusal(catalog.resolvePart(tenant, "skill", "review-guide"), "NAME_CLASH");
    expect(error.message).toBe(
      "plugins github and reviews each define a skill named review-guide; name the one you mean by its address, such as github/review-guide",
    );
    expect(await catalog.resolvePart(tenant, "skill", "escalation")).toMatchObject({
      address: "support-triage/escalation",
      bare: true,
    });
  });

  it("finds agents and flows in one set of names, and tells an agent from a flow", async () => {
    expect(
      await catalog.resolvePart(tenant, "agent-or-flow", "acme-release-notes/weekly-notes"),
    ).toMatchObject({
      kind: "flow",
      address: "acme-release-notes/weekly-notes",
    });
    expect(await catalog.resolvePart(tenant, "flow", "weekly-notes")).toMatchObject({ kind: "flow" });
    const error = await refusal(
      catalog.resolvePart(tenant, "agent", "acme-release-notes/weekly-notes"),
      "NOT_FOUND",
    );
    expect(error.message).toBe(
      `no agent acme-release-notes/weekly-notes in tenant ${tenant}: weekly-notes is a flow (acme-release-notes/weekly-notes)`,
    );
  });

  it("says a name does not exist, suggesting a close one", async () => {
    const error = await refusal(catalog.resolvePart(tenant, "agent", "support-triage/triag"), "NOT_FOUND");
    expect(error.message).toBe(
      `no agent support-triage/triag in tenant ${tenant}; did you mean support-triage/triage?`,
    );
    expect(error.data).toEqual({ kind: "agent", name: "support-triage/triag", tenant });
  });

  it("refuses a function the tool does not have", async () => {
    const error = await refusal(
      catalog.resolvePart(tenant, "function", "support-triage/tickets.close"),
      "NOT_FOUND",
    );
    expect(error.message).toBe(
      `no function support-triage/tickets.close in tenant ${tenant}: tool tickets (support-triage/tickets) has no function close`,
    );
  });

  it("resolves a function of an MCP tool by its tool, since the server lists its functions when a job starts", async () => {
    expect(await catalog.resolvePart(tenant, "function", "files/fs.read_file")).toMatchObject({
      plugin: "files",
      name: "fs.read_file",
    });
  });

  it("refuses a built-in, which belongs to no plugin", async () => {
    const error = await refusal(catalog.resolvePart(tenant, "function", "oz.delegate"), "INVALID_ADDRESS");
    expect(error.message).toMatch(/^oz\.delegate is one of oz0's built-in functions/);
  });

  it("refuses a malformed address before looking anything up", async () => {
    await refusal(catalog.resolvePart(tenant, "agent", "github/triage/x"), "INVALID_ADDRESS");
    await refusal(catalog.resolvePart("no-such-tenant", "agent", "github/triage/x"), "INVALID_ADDRESS");
  });

  it("reads the same text as the same part each time, by each kind, and refuses a malformed one each time", async () => {
    for (let round = 0; round < 2; round++) {
      expect(await catalog.resolvePart(tenant, "agent", "support-triage/triage")).toMatchObject({
        plugin: "support-triage",
        name: "triage",
      });
      await refusal(catalog.resolvePart(tenant, "tool", "support-triage/triage"), "NOT_FOUND");
      await refusal(catalog.resolvePart(tenant, "agent", "github/triage/x"), "INVALID_ADDRESS");
    }
  });

  it("refuses a tenant that does not exist", async () => {
    await refusal(catalog.resolvePart("no-such-tenant", "agent", "support-triage/triage"), "NOT_FOUND");
  });

  describe("a caller limited to some parts", () => {
    const onlyGithub = (part: PartRef) => part.plugin === "github";

    /** The refusal with the tenant's name taken out, so two tenants' answers compare. */
    async function answer(tenantName: string, work: Promise<unknown>) {
      const error = await refusal(work, "NOT_FOUND");
      const data = { ...error.data, tenant: "T" };
      return { code: error.code, message: error.message.replace(tenantName, "T"), data };
    }

    it("learns nothing about a part it may not see: the answer is that of a name that does not exist", async () => {
      const empty = await tenantWith("github");
      for (const [kind, text] of [
        ["agent", "support-triage/triage"],
        ["agent", "github/triage"],
        ["agent", "triage"],
        ["function", "support-triage/tickets.lookup"],
        ["function", "github/tickets.lookup"],
        ["tool", "tickets"],
        ["skill", "support-triage/escalation"],
      ] as const) {
        const hidden = await answer(tenant, catalog.resolvePart(tenant, kind, text, { visible: onlyGithub }));
        const missing = await answer(empty, catalog.resolvePart(empty, kind, text, { visible: onlyGithub }));
        expect(hidden, `${kind} ${text}`).toEqual(missing);
        expect(hidden.data).toMatchObject({ name: text });
      }
    });

    it("still finds what it may see", async () => {
      expect(
        await catalog.resolvePart(tenant, "agent", "github/oz0-github", { visible: onlyGithub }),
      ).toMatchObject({ plugin: "github" });
    });
  });

  describe("two plugins that define one name anyway", () => {
    it("runs neither, with the spec's reason, whichever address names it", async () => {
      const clashing = await tenantWith("support-triage");
      await writePast(store.db, clashing, "other-triage", [{ kind: "agent", name: "triage" }]);
      for (const text of ["triage", "support-triage/triage", "other-triage/triage"]) {
        const error = await refusal(catalog.resolvePart(clashing, "agent", text), "NAME_CLASH");
        expect(error.message).toBe(
          "plugins other-triage and support-triage each define an agent or flow named triage, so neither runs. " +
            "Remove one of the plugins, or update one to a version whose agent or flow has another name.",
        );
        expect(error.data).toEqual({
          kind: "agent or flow",
          name: "triage",
          plugins: ["other-triage", "support-triage"],
        });
      }
    });

    it("counts a flow of another plugin with an agent's name as a clash", async () => {
      const clashing = await tenantWith("support-triage");
      await writePast(store.db, clashing, "triage-flows", [{ kind: "flow", name: "triage" }]);
      await refusal(catalog.resolvePart(clashing, "agent-or-flow", "triage"), "NAME_CLASH");
    });

    it("fails a tool two plugins provide with TOOL_CLASH, through the tool and its functions", async () => {
      const clashing = await tenantWith("support-triage");
      await writePast(store.db, clashing, "ticket-tools", [
        { kind: "tool", name: "tickets" },
        { kind: "function", name: "tickets.lookup" },
      ]);
      expect(await catalog.toolOwners(clashing, "tickets")).toEqual(["support-triage", "ticket-tools"]);
      const error = await refusal(
        catalog.resolvePart(clashing, "function", "support-triage/tickets.lookup"),
        "TOOL_CLASH",
      );
      expect(error.message).toBe(
        "plugins support-triage and ticket-tools each define the tool tickets, so neither runs. " +
          "Remove one of the plugins, or update one to a version whose tool has another ID.",
      );
      expect(error.data).toEqual({ tool: "tickets", plugins: ["support-triage", "ticket-tools"] });
      await refusal(catalog.resolvePart(clashing, "tool", "tickets"), "TOOL_CLASH");
    });

    it("shows the clash in the catalog", async () => {
      const clashing = await tenantWith("support-triage");
      await writePast(store.db, clashing, "other-triage", [{ kind: "agent", name: "triage" }]);
      const entries = await catalog.entries(clashing);
      expect(entries.filter((entry) => entry.clash).map((entry) => entry.address)).toEqual([
        "other-triage/triage",
        "support-triage/triage",
      ]);
    });
  });

  describe("the catalog's lookup by name", () => {
    it("finds a part of any kind by address, through the owner check", async () => {
      expect(await catalog.lookup(tenant, "support-triage/tickets.lookup")).toEqual({
        kind: "function",
        address: "support-triage/tickets.lookup",
        plugin: "support-triage",
        name: "tickets.lookup",
        description: "Look a ticket up by id.",
        tags: [],
        modelName: "tickets__lookup",
        clash: false,
        bare: false,
      });
      expect(await catalog.lookup(tenant, "acme-release-notes/weekly-notes")).toMatchObject({ kind: "flow" });
      expect(await catalog.lookup(tenant, "support-triage/tickets")).toMatchObject({ kind: "tool" });
      expect(await catalog.lookup(tenant, "support-triage/escalation")).toMatchObject({ kind: "skill" });
      expect(await catalog.lookup(tenant, "triage")).toMatchObject({
        address: "support-triage/triage",
        bare: true,
      });
      expect(await catalog.lookup(tenant, "files/fs.list_dir")).toMatchObject({
        kind: "function",
        description: null,
      });
    });

    it("refuses an address that names another plugin, with the owner", async () => {
      const error = await refusal(catalog.lookup(tenant, "github/triage"), "OWNER_MISMATCH");
      expect(error.message).toBe("github/triage is not an agent of github: triage is support-triage's");
      await refusal(catalog.lookup(tenant, "github/escalation"), "OWNER_MISMATCH");
    });

    it("says when no part of any kind has the name", async () => {
      const error = await refusal(catalog.lookup(tenant, "github/nothing"), "NOT_FOUND");
      expect(error.message).toBe(`no agent, flow, tool or skill github/nothing in tenant ${tenant}`);
      const typed = await refusal(catalog.lookup(tenant, "github/nothing", { kind: "agent" }), "NOT_FOUND");
      expect(typed.message).toBe(`no agent github/nothing in tenant ${tenant}`);
    });
  });

  it("names the plugins that provide a tool ID", async () => {
    expect(await catalog.toolOwners(tenant, "oz0_github")).toEqual(["github"]);
    expect(await catalog.toolOwners(tenant, "nothing")).toEqual([]);
  });
});
