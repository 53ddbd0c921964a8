import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { plugin, refusal, tenantRows } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("updating and removing plugins on $label", (fixture) => {
  let store: Store;
  let catalog: Catalog;
  let count = 0;

  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    catalog = new Catalog(store, tmpdir());
  });
  afterAll(() => store.close());

  async function tenantWith(...plugins: string[]): Promise<string> {
    const tenant = `tenant-${++count}`;
    for (const name of plugins) await catalog.install(tenant, plugin(name));
    return tenant;
  }

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

  it("updates a plugin to the version in a folder, replacing its parts", async () => {
    const tenant = await tenantWith("github");
    const report = await catalog.update(tenant, plugin("github-renamed"));
    expect(report).toMatchObject({ action: "update", version: "1.5.0", previousVersion: "1.4.0" });
    expect(report.added).toEqual(["github/pr-helper", "github/oz0_github.list_pulls"]);
    expect(report.removed).toEqual(["github/oz0-github", "github/oz0_github.list_pull_requests"]);
    const addresses = (await catalog.entries(tenant)).map((entry) => entry.address);
    expect(addresses).toContain("github/oz0_github.list_pulls");
    expect(addresses).not.toContain("github/oz0_github.list_pull_requests");
  });

  it("refuses to update a plugin that is not installed, saying how to install it", async () => {
    const tenant = await tenantWith("support-triage");
    const error = await refusedUnchanged(tenant, () => catalog.update(tenant, plugin("github")), "NOT_FOUND");
    expect(error.message).toBe(
      `plugin github is not installed in tenant ${tenant}. Install it with oz0 plugin install ${plugin("github")}`,
    );
  });

  describe("renames", () => {
    it("refuses an update that drops a function and an agent another installed plugin names, naming who uses it", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.update(tenant, plugin("github-renamed")),
        "PART_IN_USE",
      );
      expect(error.message).toBe(
        `cannot update github from 1.4.0 to 1.5.0 in tenant ${tenant}: other installed plugins use what it would take away:\n` +
          "  - acme-release-notes, uses: github tools oz0_github.list_pull_requests: tool oz0_github of github 1.5.0 has no function list_pull_requests\n" +
          "  - acme-release-notes, uses: github agents oz0-github: github 1.5.0 has no agent oz0-github\n" +
          "  - acme-release-notes, agent acme-release-notes (agents/acme-release-notes.yaml) tools github/oz0_github.list_pull_requests: tool oz0_github of github 1.5.0 has no function list_pull_requests\n" +
          "  - acme-release-notes, agent acme-release-notes (agents/acme-release-notes.yaml) delegation.allow github/oz0-github: github 1.5.0 has no agent oz0-github\n" +
          "  - acme-release-notes, flow weekly-notes step prs call github/oz0_github.list_pull_requests: tool oz0_github of github 1.5.0 has no function list_pull_requests\n" +
          "Do not rename a part in place: ship the new name beside the old one, move those plugins to it, and drop the old one in a later version; or go ahead anyway with --force --reason TEXT.",
      );
      expect(error.data).toMatchObject({ tenant, plugin: "github" });
    });

    it("goes ahead when forced, and records the reason", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const reason = "acme moves to list_pulls in its next release";
      const report = await catalog.update(tenant, plugin("github-renamed"), { force: true, reason });
      expect(report.forcedReason).toBe(reason);
      expect(report.overridden.map((one) => one.reference)).toContain("oz0_github.list_pull_requests");
      const [github] = (await catalog.list(tenant)).filter((one) => one.name === "github");
      expect(github).toMatchObject({ version: "1.5.0", forcedReason: reason });
      expect(
        (await catalog.changes(tenant)).map(({ action, version, previousVersion, forcedReason }) => ({
          action,
          version,
          previousVersion,
          forcedReason,
        })),
      ).toEqual([
        { action: "install", version: "1.4.0", previousVersion: null, forcedReason: null },
        { action: "install", version: "1.0.0", previousVersion: null, forcedReason: null },
        { action: "update", version: "1.5.0", previousVersion: "1.4.0", forcedReason: reason },
      ]);
    });

    it("refuses --force without a reason, and a reason without --force", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.update(tenant, plugin("github-renamed"), { force: true }),
        "INVALID_INPUT",
      );
      expect(error.message).toMatch(/^--force needs --reason TEXT/);
      await refusedUnchanged(
        tenant,
        () => catalog.update(tenant, plugin("github-renamed"), { force: true, reason: "  " }),
        "INVALID_INPUT",
      );
      await refusedUnchanged(
        tenant,
        () => catalog.update(tenant, plugin("github-renamed"), { reason: "because" }),
        "INVALID_INPUT",
      );
    });

    it("refuses an update to a version outside what another plugin's uses: accepts, unless forced", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.update(tenant, plugin("github-2")),
        "PART_IN_USE",
      );
      expect(error.message).toContain(
        "  - acme-release-notes, uses: github: github 2.0.0 is installed, outside the range uses: asks for (>=1.1 <2)",
      );
      const report = await catalog.update(tenant, plugin("github-2"), { force: true, reason: "testing 2.0" });
      expect(report.version).toBe("2.0.0");
    });

    it("lets an update keep a reference that was broken before it", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      await catalog.update(tenant, plugin("github-2"), { force: true, reason: "testing 2.0" });
      // acme's range was broken by the forced update; updating github again breaks nothing new.
      const report = await catalog.update(tenant, plugin("github-2"));
      expect(report.overridden).toEqual([]);
    });
  });

  describe("removing", () => {
    it("removes a plugin and its parts, and records it", async () => {
      const tenant = await tenantWith("support-triage", "github");
      const report = await catalog.remove(tenant, "github");
      expect(report).toMatchObject({ action: "remove", plugin: "github", version: "1.4.0" });
      expect(report.removed).toContain("github/oz0_github.get_file");
      expect((await catalog.list(tenant)).map((one) => one.name)).toEqual(["support-triage"]);
      expect((await catalog.entries(tenant)).every((entry) => entry.plugin === "support-triage")).toBe(true);
      expect((await catalog.changes(tenant)).at(-1)).toMatchObject({ action: "remove", plugin: "github" });
    });

    it("refuses to remove a plugin that is not installed, suggesting a close name", async () => {
      const tenant = await tenantWith("github");
      const error = await refusal(catalog.remove(tenant, "githbu"), "NOT_FOUND");
      expect(error.message).toBe(`plugin githbu is not installed in tenant ${tenant}; did you mean github?`);
    });

    it("refuses to remove a plugin another installed plugin uses, unless forced with a reason", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      const error = await refusedUnchanged(tenant, () => catalog.remove(tenant, "github"), "PART_IN_USE");
      expect(error.message).toMatch(
        new RegExp(`^cannot remove github 1\\.4\\.0 from tenant ${tenant}: acme-release-notes uses it:`),
      );
      expect(error.message).toContain("  - acme-release-notes, uses: github\n");
      expect(error.message).toContain(
        "Remove acme-release-notes first (oz0 plugin remove acme-release-notes), or update it to a version that does not use github; or go ahead anyway with --force --reason TEXT.",
      );
      await catalog.remove(tenant, "github", { force: true, reason: "replacing github with gitlab" });
      expect((await catalog.changes(tenant, { plugin: "github" })).at(-1)).toMatchObject({
        action: "remove",
        forcedReason: "replacing github with gitlab",
      });
    });

    it("counts bare names of another plugin's parts as uses", async () => {
      const tenant = await tenantWith("support-triage", "escalations");
      const error = await refusedUnchanged(
        tenant,
        () => catalog.remove(tenant, "support-triage"),
        "PART_IN_USE",
      );
      expect(error.data?.problems).toEqual([
        {
          plugin: "escalations",
          where: "agent escalate (plugin.yaml) tools",
          reference: "tickets.lookup",
          problem: `no plugin in tenant ${tenant} defines a function tickets.lookup`,
        },
        {
          plugin: "escalations",
          where: "agent escalate (plugin.yaml) delegation.allow",
          reference: "triage",
          problem: `no plugin in tenant ${tenant} defines an agent triage`,
        },
      ]);
    });

    it("refuses to install a version that plugins already installed cannot use, unless forced", async () => {
      const tenant = await tenantWith("github", "acme-release-notes");
      await catalog.remove(tenant, "github", { force: true, reason: "moving to 2.0" });
      const error = await refusedUnchanged(
        tenant,
        () => catalog.install(tenant, plugin("github-2")),
        "PART_IN_USE",
      );
      expect(error.message).toContain(
        "github 2.0.0 is installed, outside the range uses: asks for (>=1.1 <2)",
      );
      await catalog.install(tenant, plugin("github-2"), { force: true, reason: "moving to 2.0" });
    });
  });
});
