// Installed plugins loaded from the folders they were installed from, for the job engine to
// build tools and read agents. A load is kept while the files it read keep their modification
// times, so a job start costs a few stat calls, and an edited plugin is read afresh.
import { lstat, stat } from "node:fs/promises";
import { join } from "node:path";
import { Oz0Error } from "@oz0/sdk";
import { type LoadedPlugin, loadPluginDir } from "../plugin-dir/index.js";

interface Installed {
  readonly tenant: string;
  readonly name: string;
  readonly version: string;
  readonly dir: string;
}

interface Entry {
  readonly stamp: string;
  readonly loaded: LoadedPlugin;
}

export class InstalledPlugins {
  private readonly entries = new Map<string, Entry>();

  async load(installed: Installed): Promise<LoadedPlugin> {
    const key = `${installed.dir}\0${installed.version}`;
    const entry = this.entries.get(key);
    if (entry !== undefined && (await stampOf(entry.loaded)) === entry.stamp) return entry.loaded;
    const loaded = await loadFolder(installed);
    this.entries.set(key, { stamp: await stampOf(loaded), loaded });
    return loaded;
  }
}

async function loadFolder(installed: Installed): Promise<LoadedPlugin> {
  const { tenant, name, version, dir } = installed;
  let loaded: LoadedPlugin;
  try {
    loaded = await loadPluginDir(dir);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin ${name} ${version} of tenant ${tenant} cannot be loaded from ${dir}, where it was installed from: ${why}`,
      { cause, data: { plugin: name, detail: "installed folder does not load" } },
    );
  }
  const found = loaded.manifest;
  if (found.name !== name || found.version !== version) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin ${name} ${version} of tenant ${tenant} was installed from ${dir}, which now holds ${found.name} ${found.version}. ` +
        `Run oz0 plugin update ${dir} --tenant ${tenant} to install what the folder holds now.`,
      { data: { plugin: name, detail: "installed folder changed version" } },
    );
  }
  return loaded;
}

/**
 * The modification times and sizes of every file the load read, and of the folders it listed,
 * with what each entry itself is: a file swapped for a link is read afresh, and refused.
 */
async function stampOf(loaded: LoadedPlugin): Promise<string> {
  const paths = new Set(["plugin.yaml", "agents", "skills"]);
  if (loaded.manifest.main !== undefined) paths.add(loaded.manifest.main);
  for (const agent of loaded.agents) {
    paths.add(agent.file);
    if (agent.definition.instructions !== undefined) paths.add(agent.definition.instructions);
  }
  for (const skill of loaded.skills) paths.add(skill.file);
  paths.add("tools");
  for (const tool of loaded.toolManifests) {
    paths.add(tool.file);
    paths.add(tool.manifest.spec.entry);
  }
  const stamps = await Promise.all(
    [...paths].sort().map(async (path) => {
      const [info, entry] = await Promise.all([
        stat(join(loaded.dir, path)).catch(() => undefined),
        lstat(join(loaded.dir, path)).catch(() => undefined),
      ]);
      if (info === undefined || entry === undefined) return `${path}:-`;
      return `${path}:${info.mtimeMs}:${info.size}:${entry.ino}:${entry.isSymbolicLink()}`;
    }),
  );
  return stamps.join("\n");
}
