// The catalog and the settings keep what they read of a tenant while the tenant's catalog version
// stands, and that version moves with every change of the tenant's plugins, parts, grants and
// settings, whoever makes it: here a second process (a second store on the same database) and
// statements written past the catalog altogether.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { TenantSettings } from "../../src/models/index.js";
import { bumpGovernanceVersion, governanceOf } from "../../src/policy/index.js";
import {
  catalogOperation,
  endCatalogOperation,
  openStore,
  type Store,
  seedCatalogOperation,
} from "../../src/store/index.js";
import { plugin, refusal, writePast } from "../catalog/helpers.js";
import { disposeFixtures, engineFixtures } from "./engines.js";

const fixtures = engineFixtures().filter((fixture) => fixture.persistent);
afterAll(() => disposeFixtures(fixtures));

const AGENT = "github/oz0-github";

describe.each(fixtures)("what is kept of a tenant on $label", (fixture) => {
  /** Two catalogs over one database, as two processes on one home or server. */
  async function twoProcesses(): Promise<{
    here: Catalog;
    there: Catalog;
    stores: Store[];
    done: () => Promise<void>;
  }> {
    const options = await fixture.fresh();
    const homes = [await mkdtemp(join(tmpdir(), "oz0-cache-")), await mkdtemp(join(tmpdir(), "oz0-cache-"))];
    const stores = [await openStore(options), await openStore(options)];
    return {
      here: new Catalog(stores[0]!, homes[0]!),
      there: new Catalog(stores[1]!, homes[1]!),
      stores,
      async done() {
        for (const store of stores) await store.close();
        for (const home of homes) await rm(home, { recursive: true, force: true });
      },
    };
  }

  it("a part removed by another process is not found, though it was resolved before", async () => {
    const { here, there, done } = await twoProcesses();
    try {
      await there.install("t", plugin("github"));
      expect((await here.resolvePart("t", "agent", AGENT)).plugin).toBe("github");
      expect((await here.loadInstalled("t", "github")).manifest.version).toBe("1.4.0");
      await there.remove("t", "github");
      await refusal(here.resolvePart("t", "agent", AGENT), "NOT_FOUND");
      await refusal(here.loadInstalled("t", "github"), "NOT_FOUND");
    } finally {
      await done();
    }
  });

  it("a plugin updated by another process loads at its new version", async () => {
    const { here, there, done } = await twoProcesses();
    try {
      await there.install("t", plugin("github"));
      expect((await here.loadInstalled("t", "github")).manifest.version).toBe("1.4.0");
      await there.update("t", plugin("github-2"));
      expect((await here.loadInstalled("t", "github")).manifest.version).toBe("2.0.0");
    } finally {
      await done();
    }
  });

  it("rows written past the catalog move the version on too: a clash written there is seen", async () => {
    const { here, there, stores, done } = await twoProcesses();
    try {
      await there.install("t", plugin("github"));
      expect((await here.resolvePart("t", "agent", AGENT)).plugin).toBe("github");
      await writePast(stores[1]!.db, "t", "restored", [{ kind: "agent", name: "oz0-github" }]);
      await refusal(here.resolvePart("t", "agent", "oz0-github"), "NAME_CLASH");
      await refusal(here.resolvePart("t", "agent", AGENT), "NAME_CLASH");
    } finally {
      await done();
    }
  });

  it("a grant taken away past the catalog is no longer there", async () => {
    const { here, there, stores, done } = await twoProcesses();
    try {
      await there.install("t", plugin("github"));
      expect(await here.tenantGrant("t", "github")).toMatchObject({ plugin: "github", version: "1.4.0" });
      await stores[1]!.db.deleteFrom("plugin_grants").where("tenant", "=", "t").execute();
      expect(await here.tenantGrant("t", "github")).toBeUndefined();
    } finally {
      await done();
    }
  });

  it("a setting changed or removed by another process is read as it is now", async () => {
    const { there, stores, done } = await twoProcesses();
    const [here, elsewhere] = stores.map((store) => new TenantSettings(store.db, store.clockSql)) as [
      TenantSettings,
      TenantSettings,
    ];
    try {
      await there.install("t", plugin("github"));
      await elsewhere.put("t", "model.fast", "openai:gpt-4.1-mini");
      expect(await here.get("t", "model.fast")).toBe("openai:gpt-4.1-mini");
      expect(await here.list("t", "model.")).toEqual([["fast", "openai:gpt-4.1-mini"]]);
      await elsewhere.put("t", "model.fast", "anthropic:claude-haiku-4-5");
      expect(await here.get("t", "model.fast")).toBe("anthropic:claude-haiku-4-5");
      expect(await here.list("t", "model.")).toEqual([["fast", "anthropic:claude-haiku-4-5"]]);
      await elsewhere.delete("t", "model.fast");
      expect(await here.get("t", "model.fast")).toBeUndefined();
      expect(await here.list("t", "model.")).toEqual([]);
    } finally {
      await done();
    }
  });

  it("each read of a kept setting gets a value of its own", async () => {
    const { there, stores, done } = await twoProcesses();
    const settings = new TenantSettings(stores[0]!.db, stores[0]!.clockSql);
    try {
      await there.install("t", plugin("github"));
      await settings.put("t", "provider.local", { baseUrl: "http://127.0.0.1:1" });
      const first = await settings.get<{ baseUrl: string }>("t", "provider.local");
      first!.baseUrl = "changed by its reader";
      expect(await settings.get("t", "provider.local")).toEqual({ baseUrl: "http://127.0.0.1:1" });
    } finally {
      await done();
    }
  });

  it("an operation reads the tenant's version once for all its look-ups, and goes by it until it ends", async () => {
    const { here, there, stores, done } = await twoProcesses();
    const settings = new TenantSettings(stores[0]!.db, stores[0]!.clockSql);
    const query = vi.spyOn(stores[0]!.db, "executeQuery");
    const versionReads = () =>
      query.mock.calls.filter(([compiled]) => "sql" in compiled && compiled.sql.includes("catalog_version"))
        .length;
    try {
      await there.install("t", plugin("github"));
      await catalogOperation(async () => {
        expect((await here.resolvePart("t", "agent", AGENT)).plugin).toBe("github");
        expect((await here.loadInstalled("t", "github")).manifest.version).toBe("1.4.0");
        expect(await here.tenantGrant("t", "github")).toMatchObject({ plugin: "github" });
        expect(await settings.get("t", "model.fast")).toBeUndefined();
        expect(versionReads()).toBe(1);
        // Removed meanwhile: the operation sees the catalog as it began.
        await there.remove("t", "github");
        expect((await here.resolvePart("t", "agent", AGENT)).plugin).toBe("github");
        expect(versionReads()).toBe(1);
        // Once it ends, each look-up reads the version again, and finds the removal.
        endCatalogOperation();
        await refusal(here.resolvePart("t", "agent", AGENT), "NOT_FOUND");
        expect(versionReads()).toBe(2);
      });
      await refusal(here.loadInstalled("t", "github"), "NOT_FOUND");
      expect(versionReads()).toBe(3);
    } finally {
      query.mockRestore();
      await done();
    }
  });

  it("an operation's governance checks go by the governance version read with its catalog version, until it ends", async () => {
    const { here, there, stores, done } = await twoProcesses();
    const query = vi.spyOn(stores[0]!.db, "executeQuery");
    const governanceReads = () =>
      query.mock.calls.filter(
        ([compiled]) => "sql" in compiled && compiled.sql.startsWith('select "governance_version"'),
      ).length;
    const governanceNow = async () =>
      Number(
        (
          await stores[0]!.db
            .selectFrom("tenants")
            .select("governance_version")
            .where("name", "=", "t")
            .executeTakeFirstOrThrow()
        ).governance_version,
      );
    try {
      await there.install("t", plugin("github"));
      const before = await governanceNow();
      await catalogOperation(async () => {
        await here.resolvePart("t", "agent", AGENT);
        expect((await governanceOf(stores[0]!).current("t")).version).toBe(before);
        expect(governanceReads()).toBe(0);
        // Changed meanwhile: the operation's checks see governance as it began.
        await bumpGovernanceVersion(stores[1]!.db, "t");
        expect((await governanceOf(stores[0]!).current("t")).version).toBe(before);
        // Once it ends, each check reads the version again.
        endCatalogOperation();
        expect((await governanceOf(stores[0]!).current("t")).version).toBe(before + 1);
        expect(governanceReads()).toBe(1);
      });
    } finally {
      query.mockRestore();
      await done();
    }
  });

  it("an operation given the tenant's versions with other data reads them no more", async () => {
    const { here, there, stores, done } = await twoProcesses();
    await there.install("t", plugin("github"));
    const versions = await stores[0]!.db
      .selectFrom("tenants")
      .select(["catalog_version", "governance_version"])
      .where("name", "=", "t")
      .executeTakeFirstOrThrow();
    const query = vi.spyOn(stores[0]!.db, "executeQuery");
    try {
      await catalogOperation(async () => {
        seedCatalogOperation(stores[0]!.db, "t", {
          catalog: Number(versions.catalog_version),
          governance: Number(versions.governance_version),
        });
        expect((await here.resolvePart("t", "agent", AGENT)).plugin).toBe("github");
        await governanceOf(stores[0]!).current("t");
        const reads = query.mock.calls.filter(
          ([compiled]) => "sql" in compiled && /catalog_version|governance_version/.test(compiled.sql),
        );
        expect(reads).toEqual([]);
      });
    } finally {
      query.mockRestore();
      await done();
    }
  });

  it("a tenant that does not exist is refused as before, with the closest name", async () => {
    const { here, there, done } = await twoProcesses();
    try {
      await there.install("tenant-a", plugin("github"));
      const refused = await refusal(here.resolvePart("tenant-b", "agent", AGENT), "NOT_FOUND");
      expect(refused.message).toContain("Did you mean tenant-a?");
    } finally {
      await done();
    }
  });

  it("the version moves on with each insert, update and delete of plugins, parts, grants, settings and pool mappings, and nothing else", async () => {
    const { there, stores, done } = await twoProcesses();
    const db = stores[0]!.db;
    const version = async () =>
      Number(
        (
          await db
            .selectFrom("tenants")
            .select("catalog_version")
            .where("name", "=", "t")
            .executeTakeFirstOrThrow()
        ).catalog_version,
      );
    try {
      await there.install("t", plugin("github"));
      let last = await version();
      const moves = async (change: () => Promise<unknown>) => {
        await change();
        const now = await version();
        expect(now).toBeGreaterThan(last);
        last = now;
      };
      await moves(() =>
        db.updateTable("plugins").set({ dir: "/elsewhere" }).where("tenant", "=", "t").execute(),
      );
      await moves(() =>
        db.updateTable("parts").set({ definition: "{}" }).where("tenant", "=", "t").execute(),
      );
      await moves(() =>
        db.updateTable("plugin_grants").set({ granted_by: "x" }).where("tenant", "=", "t").execute(),
      );
      await moves(() => db.deleteFrom("plugin_grants").where("tenant", "=", "t").execute());
      await moves(() =>
        db
          .insertInto("settings")
          .values({ tenant: "t", key: "model.x", value: '"test"', updated_at: 1 })
          .execute(),
      );
      await moves(() =>
        db.updateTable("settings").set({ value: '"test:y"' }).where("tenant", "=", "t").execute(),
      );
      await moves(() => db.deleteFrom("settings").where("tenant", "=", "t").execute());
      await moves(() =>
        db
          .insertInto("plugin_pools")
          .values({ tenant: "t", plugin: "github", pool: "gpu", labels: "", created_by: "x", created_at: 1 })
          .execute(),
      );
      await moves(() =>
        db.updateTable("plugin_pools").set({ labels: "gpu" }).where("tenant", "=", "t").execute(),
      );
      await moves(() => db.deleteFrom("plugin_pools").where("tenant", "=", "t").execute());
      await moves(() => db.deleteFrom("parts").where("tenant", "=", "t").execute());
      await moves(() => db.deleteFrom("plugins").where("tenant", "=", "t").execute());
      await db.updateTable("tenants").set({ governance_version: 7 }).where("name", "=", "t").execute();
      expect(await version()).toBe(last);
    } finally {
      await done();
    }
  });
});
