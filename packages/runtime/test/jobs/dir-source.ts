// The catalog's read side over plugin folders, for the job engine's tests: the plugins of a
// "tenant" are the folders given, with the owner check and clashes the catalog applies.
import { fileURLToPath } from "node:url";
import { formatAddress, notOwnedMessage, Oz0Error, parsePartAddress, resolveReference } from "@oz0/sdk";
import type { TenantGrant } from "../../src/catalog/index.js";
import { type LoadedPlugin, loadPluginDir } from "../../src/plugin-dir/index.js";
import type { PartSource, SourcePart } from "../../src/tools/index.js";

/** A fixture plugin folder under test/fixtures/jobs. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/jobs/${name}`, import.meta.url));
}

export class DirSource implements PartSource {
  readonly plugins: ReadonlyMap<string, LoadedPlugin>;

  private constructor(plugins: readonly LoadedPlugin[]) {
    this.plugins = new Map(plugins.map((plugin) => [plugin.manifest.name, plugin]));
  }

  static async load(dirs: readonly string[]): Promise<DirSource> {
    return new DirSource(await Promise.all(dirs.map((dir) => loadPluginDir(dir))));
  }

  resolvePart(
    _tenant: string,
    kind: "agent" | "flow" | "skill",
    text: string,
    options: { readonly fromPlugin?: string } = {},
  ): SourcePart {
    const { address, bare } =
      options.fromPlugin === undefined
        ? { address: parsePartAddress(text, kind), bare: false }
        : resolveReference(text, { plugin: options.fromPlugin, expect: kind });
    const owners = [...this.plugins.values()]
      .filter((plugin) => plugin.agents.some((agent) => agent.definition.name === address.name))
      .map((plugin) => plugin.manifest.name);
    if (owners.length === 0) {
      throw new Oz0Error("NOT_FOUND", `no agent ${address.name}`, { data: { kind, name: address.name } });
    }
    if (owners.length > 1) {
      throw new Oz0Error(
        "NAME_CLASH",
        `plugins ${owners.join(" and ")} each define an agent named ${address.name}`,
        {
          data: { kind, name: address.name, plugins: owners },
        },
      );
    }
    const owner = owners[0]!;
    if (owner !== address.plugin && !bare) {
      throw new Oz0Error("OWNER_MISMATCH", notOwnedMessage({ address, owner }), {
        data: { address: formatAddress(address), owner },
      });
    }
    return { plugin: owner, name: address.name, bare };
  }

  /** The folders' plugins are granted what their uses: asks, as an admin's install grants it. */
  tenantGrant(_tenant: string, plugin: string): TenantGrant | undefined {
    const loaded = this.plugins.get(plugin);
    if (loaded === undefined) return undefined;
    const { version, uses } = loaded.manifest;
    return { plugin, version, uses: uses ?? {}, grantedBy: "test", grantedAt: 0 };
  }

  loadInstalled(_tenant: string, plugin: string): LoadedPlugin {
    const loaded = this.plugins.get(plugin);
    if (loaded === undefined)
      throw new Oz0Error("NOT_FOUND", `no plugin ${plugin}`, { data: { kind: "plugin", name: plugin } });
    return loaded;
  }

  toolOwners(_tenant: string, tool: string): string[] {
    return [...this.plugins.values()]
      .filter((plugin) => plugin.manifest.tools?.some((entry) => entry.id === tool))
      .map((plugin) => plugin.manifest.name);
  }
}
