// Installed plugins loaded from their bundles, for the job engine to build tools and read agents:
// each bundle is written under the home once (checked against its digest) and loaded once per
// process, whatever becomes of the folder it was installed from. A plugin installed before
// bundles has none yet: its first load bundles the folder it was installed from, once. What a
// bundle declares is read once per build of oz0, and kept in the store.
import { Oz0Error } from "@oz0/sdk";
import {
  type BundleCache,
  bundleFolder,
  keptDeclarations,
  OZ0_BUILD,
  packed,
  readBundle,
  saveBundle,
} from "../bundles/index.js";
import { type LoadedPlugin, loadPluginDir } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";

interface Installed {
  readonly tenant: string;
  readonly name: string;
  readonly version: string;
  readonly dir: string;
  readonly bundle: string | null;
}

export class InstalledPlugins {
  private readonly loads = new Map<string, Promise<LoadedPlugin>>();
  private readonly store: Store;
  private readonly bundles: BundleCache;

  /** The build whose reading of a bundle's declarations is kept (bundles/declarations.ts). */
  private readonly reader: string | undefined;

  constructor(store: Store, bundles: BundleCache, reader: string | undefined = OZ0_BUILD) {
    this.store = store;
    this.bundles = bundles;
    this.reader = reader;
  }

  async load(installed: Installed): Promise<LoadedPlugin> {
    if (installed.bundle === null) return this.adopt(installed);
    const digest = installed.bundle;
    let loading = this.loads.get(digest);
    if (loading === undefined) {
      loading = this.loadBundle(installed, digest);
      this.loads.set(digest, loading);
      loading.catch(() => this.loads.delete(digest));
    }
    return matching(installed, await loading, `its bundle ${digest}`);
  }

  private async loadBundle(installed: Installed, digest: string): Promise<LoadedPlugin> {
    try {
      const dir = await this.bundles.dir(digest, () => readBundle(this.store.db, digest));
      return await loadPluginDir(dir, {
        declarations: (read) => keptDeclarations(this.store, digest, read, this.reader),
      });
    } catch (cause) {
      throw cannotLoad(installed, `its bundle ${digest}`, cause);
    }
  }

  /** Bundles the folder a plugin older than bundles was installed from, and records the bundle. */
  private async adopt(installed: Installed): Promise<LoadedPlugin> {
    const where = `${installed.dir}, where it was installed from`;
    let loaded: LoadedPlugin;
    let bundle: Awaited<ReturnType<typeof packed>>;
    try {
      bundle = await packed(await bundleFolder(installed.dir));
      loaded = await loadPluginDir(await this.bundles.put(bundle.bundle));
    } catch (cause) {
      throw cannotLoad(installed, where, cause);
    }
    matching(installed, loaded, installed.dir);
    await saveBundle(this.store.db, bundle, this.store.clockSql);
    await this.store.db
      .updateTable("plugins")
      .set({ bundle: bundle.bundle.digest })
      .where("tenant", "=", installed.tenant)
      .where("name", "=", installed.name)
      .where("bundle", "is", null)
      .execute();
    return loaded;
  }
}

function cannotLoad(installed: Installed, where: string, cause: unknown): Oz0Error {
  const { tenant, name, version } = installed;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Oz0Error(
    "INVALID_PLUGIN",
    `plugin ${name} ${version} of tenant ${tenant} cannot be loaded from ${where}: ${why}`,
    { cause, data: { plugin: name, detail: "installed plugin does not load" } },
  );
}

/** `loaded`, when it is the plugin and version the row says; a bundle always is, an old folder may not be. */
function matching(installed: Installed, loaded: LoadedPlugin, where: string): LoadedPlugin {
  const { tenant, name, version, dir } = installed;
  const found = loaded.manifest;
  if (found.name === name && found.version === version) return loaded;
  throw new Oz0Error(
    "INVALID_PLUGIN",
    `plugin ${name} ${version} of tenant ${tenant} was installed from ${where}, which now holds ${found.name} ${found.version}. ` +
      `Run oz0 plugin update ${dir} --tenant ${tenant} to install what the folder holds now.`,
    { data: { plugin: name, detail: "installed folder changed version" } },
  );
}
