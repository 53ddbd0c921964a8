import { cp, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { plugin, refusal } from "./helpers.js";

describe("loading an installed plugin", () => {
  let store: Store;
  let catalog: Catalog;
  let work: string;

  beforeAll(async () => {
    store = await openStore({ memory: true });
    catalog = new Catalog(store, tmpdir());
    work = await mkdtemp(join(tmpdir(), "oz0-installed-"));
  });
  afterAll(async () => {
    await store.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A copy of a fixture plugin that a test may edit. */
  async function copyOf(name: string): Promise<string> {
    const dir = join(work, `${name}-${Math.random().toString(36).slice(2)}`);
    await cp(plugin(name), dir, { recursive: true });
    return dir;
  }

  /** Sets a file's modification time ahead, as an edit a moment later would. */
  async function touch(path: string, seconds: number): Promise<void> {
    const when = new Date(Date.now() + seconds * 1000);
    await utimes(path, when, when);
  }

  it("loads the plugin from the folder it was installed from, with its agents and code", async () => {
    await catalog.install("loads", plugin("github"));
    const loaded = await catalog.loadInstalled("loads", "github");
    expect(loaded.manifest.version).toBe("1.4.0");
    expect(loaded.agents.map((agent) => agent.definition.name)).toEqual(["oz0-github"]);
    expect(loaded.code?.registrations("tool").map((tool) => tool.name)).toEqual(["oz0_github"]);
  });

  it("reads the folder again only when a file it read changed", async () => {
    const dir = await copyOf("acme-release-notes");
    await catalog.install("cached", plugin("github"));
    await catalog.install("cached", dir);
    const first = await catalog.loadInstalled("cached", "acme-release-notes");
    expect(await catalog.loadInstalled("cached", "acme-release-notes")).toBe(first);
    const prompt = join(dir, "prompts/release-notes.md");
    await writeFile(prompt, "Write short release notes.\n");
    await touch(prompt, 5);
    const second = await catalog.loadInstalled("cached", "acme-release-notes");
    expect(second).not.toBe(first);
    expect(second.agents[0]?.prompt).toBe("Write short release notes.\n");
  });

  it("refuses a folder that now holds another version, pointing to update", async () => {
    const dir = await copyOf("github");
    await catalog.install("moved-on", dir);
    const manifest = join(dir, "plugin.yaml");
    await writeFile(manifest, (await readFile(manifest, "utf8")).replace("version: 1.4.0", "version: 1.6.0"));
    await touch(manifest, 5);
    const error = await refusal(catalog.loadInstalled("moved-on", "github"), "INVALID_PLUGIN");
    expect(error.message).toBe(
      `plugin github 1.4.0 of tenant moved-on was installed from ${dir}, which now holds github 1.6.0. ` +
        `Run oz0 plugin update ${dir} --tenant moved-on to install what the folder holds now.`,
    );
  });

  it("says so when the folder it was installed from is gone", async () => {
    const dir = await copyOf("github");
    await catalog.install("gone", dir);
    await rm(dir, { recursive: true });
    const error = await refusal(catalog.loadInstalled("gone", "github"), "INVALID_PLUGIN");
    expect(error.message).toMatch(
      /^plugin github 1\.4\.0 of tenant gone cannot be loaded from .*, where it was installed from: /,
    );
  });

  it("refuses a plugin the tenant does not have", async () => {
    await catalog.install("missing", plugin("github"));
    const error = await refusal(catalog.loadInstalled("missing", "githib"), "NOT_FOUND");
    expect(error.message).toBe("plugin githib is not installed in tenant missing; did you mean github?");
  });
});
