// What a bundle declares, kept in the store by the build of oz0 that read it, on every engine:
// a later process of that build takes the store's copy, not the files; another build, or oz0
// run from its modules, reads the bundle itself.
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BundleCache, keptDeclarations } from "../../src/bundles/index.js";
import { Catalog } from "../../src/catalog/index.js";
import { InstalledPlugins } from "../../src/catalog/installed.js";
import { loadPluginDir, type PluginDeclarations } from "../../src/plugin-dir/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { engineSuite } from "./helpers.js";

const { fixtures, temp } = engineSuite("declarations");

async function notesPlugin(): Promise<string> {
  const dir = join(await temp("plugin"), "notes");
  await mkdir(join(dir, "prompts"), { recursive: true });
  await mkdir(join(dir, "skills", "style"), { recursive: true });
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: notes\nversion: 1.0.0\nagents:\n  - name: writer\n    description: Writes.\n    instructions: prompts/writer.md\n",
  );
  await writeFile(join(dir, "prompts", "writer.md"), "Write a note.\n");
  await writeFile(
    join(dir, "skills", "style", "SKILL.md"),
    "---\nname: style\ndescription: House style.\n---\nShort sentences.\n",
  );
  return dir;
}

/** The installed row of `notes` in tenant `default`, as InstalledPlugins takes it. */
async function installedNotes(store: Store) {
  const dir = await notesPlugin();
  const { digest } = await new Catalog(store, await temp("home")).install("default", dir);
  return { tenant: "default", name: "notes", version: "1.0.0", dir, bundle: String(digest) };
}

async function keptRows(store: Store) {
  return store.db.selectFrom("bundle_declarations").select(["digest", "reader"]).execute();
}

describe.each(fixtures)("kept declarations on $label", (fixture) => {
  it("a bundle's declarations are read once per build, then taken from the store", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const installed = await installedNotes(store);
      const first = await new InstalledPlugins(store, new BundleCache(await temp("a")), "build-a").load(
        installed,
      );
      expect(first.agents[0]?.definition.description).toBe("Writes.");
      expect(first.skills.map((skill) => skill.name)).toEqual(["style"]);
      expect(await keptRows(store)).toEqual([{ digest: installed.bundle, reader: "build-a" }]);
      // What the next process believes is the store's copy: changed there, the change shows.
      const row = await store.db
        .selectFrom("bundle_declarations")
        .select("declarations")
        .executeTakeFirstOrThrow();
      const kept = JSON.parse(row.declarations) as PluginDeclarations;
      const edited = {
        ...kept,
        agents: kept.agents.map((agent) => ({ ...agent, prompt: "From the store.\n" })),
      };
      await store.db
        .updateTable("bundle_declarations")
        .set({ declarations: JSON.stringify(edited) })
        .execute();
      const next = await new InstalledPlugins(store, new BundleCache(await temp("b")), "build-a").load(
        installed,
      );
      expect(next.agents[0]?.prompt).toBe("From the store.\n");
      expect(next.code).toBeUndefined();
      expect(next.manifest).toEqual(first.manifest);
    } finally {
      await store.close();
    }
  });

  it("another build reads the bundle itself, and keeps its reading in place of the other's", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const installed = await installedNotes(store);
      await new InstalledPlugins(store, new BundleCache(await temp("a")), "build-a").load(installed);
      await store.db.updateTable("bundle_declarations").set({ declarations: '{"manifest":{}}' }).execute();
      const other = await new InstalledPlugins(store, new BundleCache(await temp("b")), "build-b").load(
        installed,
      );
      expect(other.agents[0]?.prompt).toBe("Write a note.\n");
      expect(await keptRows(store)).toEqual([{ digest: installed.bundle, reader: "build-b" }]);
    } finally {
      await store.close();
    }
  });

  it("oz0 run from its modules reads every bundle itself and keeps nothing", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const installed = await installedNotes(store);
      const loaded = await new InstalledPlugins(store, new BundleCache(await temp("a")), undefined).load(
        installed,
      );
      expect(loaded.agents[0]?.prompt).toBe("Write a note.\n");
      expect(await keptRows(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("a reading that fails keeps nothing", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const { bundle } = await installedNotes(store);
      const failing = () => Promise.reject(new Error("unreadable"));
      await expect(keptDeclarations(store, bundle, failing, "build-a")).rejects.toThrow("unreadable");
      expect(await keptRows(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe("what is kept is what a reading gives", () => {
  const root = new URL("../../../../", import.meta.url).pathname;
  const folders = ["examples", "plugins"].flatMap((parent) => {
    const at = join(root, parent);
    return existsSync(at) ? [at] : [];
  });

  it("every first-party plugin's declarations come back from JSON as they were read", async () => {
    let compared = 0;
    for (const parent of folders) {
      for (const name of await readdir(parent)) {
        const dir = join(parent, name);
        if (!existsSync(join(dir, "plugin.yaml"))) continue;
        let read: PluginDeclarations | undefined;
        await loadPluginDir(dir, {
          declarations: async (reading) => {
            read = await reading();
            return read;
          },
        });
        expect(read, dir).toBeDefined();
        expect(JSON.parse(JSON.stringify(read)), dir).toStrictEqual(read);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  });
});
