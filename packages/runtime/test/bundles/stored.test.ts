// Bundles in the store, on every engine: a process with an empty cache (another machine's home)
// writes the plugin's folder from the store's copy, bytes as BLOB on SQLite and bytea on
// PostgreSQL, and a damaged copy is refused rather than loaded.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { describe, expect, it } from "vitest";
import { bundleFolder, packBundle, readBundle } from "../../src/bundles/index.js";
import { Catalog } from "../../src/catalog/index.js";
import { openStore } from "../../src/store/index.js";
import { engineSuite } from "./helpers.js";

const { fixtures, temp } = engineSuite("stored");

async function plugin(): Promise<string> {
  const dir = join(await temp("plugin"), "notes");
  await mkdir(join(dir, "prompts"), { recursive: true });
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: notes\nversion: 1.0.0\ndescription: Notes.\nagents:\n  - name: writer\n    description: Writes.\n    instructions: prompts/writer.md\n",
  );
  await writeFile(join(dir, "prompts", "writer.md"), "Write a note, with a byte past ASCII: \u00e9.\n");
  await writeFile(join(dir, "blob.bin"), Buffer.from([0, 1, 2, 255, 254, 0]));
  return dir;
}

describe.each(fixtures)("stored bundles on $label", (fixture) => {
  it("a process with an empty cache writes the plugin from the store's copy, byte for byte", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const dir = await plugin();
      const { digest } = await new Catalog(store, await temp("home-a")).install("default", dir);
      await rm(dir, { recursive: true });
      const other = new Catalog(store, await temp("home-b"));
      const loaded = await other.loadInstalled("default", "notes");
      expect(loaded.agents[0]?.prompt).toBe("Write a note, with a byte past ASCII: \u00e9.\n");
      const back = await readBundle(store.db, String(digest));
      expect(back.digest).toBe(digest);
      const blob = back.files.find((file) => file.path === "blob.bin");
      expect(Buffer.from(blob?.bytes ?? [])).toEqual(Buffer.from([0, 1, 2, 255, 254, 0]));
    } finally {
      await store.close();
    }
  });

  it("refuses a stored copy whose files do not make its digest", async () => {
    const store = await openStore(await fixture.fresh());
    try {
      const dir = await plugin();
      const { digest } = await new Catalog(store, await temp("home-a")).install("default", dir);
      await writeFile(join(dir, "prompts", "writer.md"), "Something else.\n");
      const swapped = await packBundle(await bundleFolder(dir));
      await store.db
        .updateTable("bundles")
        .set({ archive: swapped })
        .where("digest", "=", String(digest))
        .execute();
      const error = await new Catalog(store, await temp("home-b")).loadInstalled("default", "notes").then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
      expect((error as Error).message).toContain(`not ${digest} as it should; it was changed or damaged`);
    } finally {
      await store.close();
    }
  });
});
