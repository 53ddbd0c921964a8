// What `oz0 plugin list`, `oz0 plugin inspect` and `oz0 catalog` show: plain data, every part
// by address from the owner the store knows, ready for JSON or for drawing as text.
import { modelVisibleName } from "@oz0/sdk";
import type { PartKind, PluginChangeAction } from "../store/index.js";
import { comparePartRefs, PART_ORDER, type StoredPart } from "./parts.js";
import { referenceAddress } from "./references.js";
import { refOf } from "./resolve.js";
import type { StoredPlugin, TenantView } from "./view.js";

/** One part of the tenant, as `oz0 catalog` lists it. */
export interface CatalogEntry {
  readonly kind: PartKind;
  readonly address: string;
  readonly plugin: string;
  /** The bare name (`<tool>.<function>` for a function), which jobs and records carry. */
  readonly name: string;
  readonly description: string | null;
  /** An agent's tags; empty for other parts. */
  readonly tags: readonly string[];
  /** The name a model sees for a function (`<tool>__<function>`); `null` for other parts. */
  readonly modelName: string | null;
  /** Another plugin of the tenant defines the same agent or flow name or tool ID, so neither runs. */
  readonly clash: boolean;
  /** For an MCP-backed tool whose server could not list its functions: why. */
  readonly listError?: string;
}

export interface PluginSummary {
  readonly name: string;
  readonly version: string;
  readonly description: string | null;
  /** Where it was installed from (a folder, or what an archive install named); it runs from its bundle. */
  readonly dir: string;
  /** The sha256 digest of the bundle it runs from; `null` for one installed before bundles, until its first load. */
  readonly digest: string | null;
  /** Epoch milliseconds of the install or the last update. */
  readonly installedAt: number;
  /** The reason given when the install or last update was forced. */
  readonly forcedReason: string | null;
  /** How many parts of each kind the plugin defines. */
  readonly parts: Readonly<Record<PartKind, number>>;
}

/** One install, update or remove of a tenant's plugin. */
export interface PluginChange {
  readonly seq: number;
  readonly plugin: string;
  readonly action: PluginChangeAction;
  readonly version: string;
  readonly previousVersion: string | null;
  readonly forcedReason: string | null;
  readonly at: number;
}

/** The tenant's grant of a plugin's `uses:`, as `oz0 plugin inspect` shows it. */
export interface GrantView {
  /** The plugin version whose `uses:` was granted. */
  readonly version: string;
  /** Who granted it (`migration 14` for a plugin installed before grants were kept). */
  readonly by: string;
  readonly at: number;
  /** What it grants, by address. */
  readonly uses: readonly string[];
}

export interface PluginDetail extends PluginSummary {
  /** The tenant admin's grant of its `uses:`; `null` when it has none (a default plugin, a revoked grant). */
  readonly grant: GrantView | null;
  /** What its `uses:` asks that the grant does not cover, by address: refused at run time until granted. */
  readonly ungranted: readonly string[];
  readonly uses: readonly {
    readonly plugin: string;
    /** The version range, normalised (`>=1.1 <2`); `null` for any version. */
    readonly version: string | null;
    /** The version installed in the tenant now; `null` when it is not installed. */
    readonly installed: string | null;
    /** The grants, by address. */
    readonly tools: readonly string[];
    readonly agents: readonly string[];
    readonly skills: readonly string[];
  }[];
  readonly agents: readonly {
    readonly address: string;
    readonly description: string | null;
    readonly file: string;
    readonly tags: readonly string[];
    /** The functions it may call, by address; built-ins as `oz.<function>`. */
    readonly tools: readonly string[];
    readonly delegation: readonly string[];
    readonly skills: readonly string[];
  }[];
  readonly flows: readonly {
    readonly address: string;
    readonly description: string | null;
    readonly steps: number;
  }[];
  readonly tools: readonly {
    readonly address: string;
    readonly description: string;
    readonly source: "code" | "mcp";
    /** For an MCP-backed tool whose server could not list its functions: why. */
    readonly listError?: string;
    readonly functions: readonly {
      readonly address: string;
      readonly description: string;
      readonly modelName: string;
    }[];
  }[];
  readonly skills: readonly {
    readonly address: string;
    readonly description: string;
    readonly file: string;
  }[];
  readonly routines: readonly {
    readonly name: string;
    readonly schedule: string | null;
    readonly event: string | null;
    readonly run: string;
  }[];
  /** The plugin's installs, updates and removes in the tenant, oldest first. */
  readonly changes: readonly PluginChange[];
}

export function summaryOf(plugin: StoredPlugin): PluginSummary {
  const parts = Object.fromEntries(PART_ORDER.map((kind) => [kind, 0])) as Record<PartKind, number>;
  for (const part of plugin.parts) parts[part.kind] += 1;
  return {
    name: plugin.name,
    version: plugin.version,
    description: plugin.manifest.description ?? null,
    dir: plugin.dir,
    digest: plugin.bundle,
    installedAt: plugin.installedAt,
    forcedReason: plugin.forcedReason,
    parts,
  };
}

export function detailOf(
  view: TenantView,
  plugin: StoredPlugin,
  changes: readonly PluginChange[],
): Omit<PluginDetail, "grant" | "ungranted"> {
  const own = plugin.name;
  const sorted = [...plugin.parts].sort(comparePartRefs);
  const address = (part: StoredPart) => refOf(part).address;
  return {
    ...summaryOf(plugin),
    uses: Object.entries(plugin.manifest.uses ?? {}).map(([used, entry]) => ({
      plugin: used,
      version: entry.version ?? null,
      installed: view.plugin(used)?.version ?? null,
      tools: (entry.tools ?? []).map((tool) => `${used}/${tool}`),
      agents: (entry.agents ?? []).map((agent) => `${used}/${agent}`),
      skills: (entry.skills ?? []).map((skill) => `${used}/${skill}`),
    })),
    agents: sorted.flatMap((part) => {
      if (part.kind !== "agent") return [];
      const { definition } = part;
      const skills = Array.isArray(definition.skills) ? definition.skills : (definition.skills?.use ?? []);
      return [
        {
          address: address(part),
          description: definition.description ?? null,
          file: part.file,
          tags: definition.tags ?? [],
          tools: (definition.tools ?? []).map((text) => referenceAddress(view, own, text, "function")),
          delegation: (definition.delegation?.allow ?? []).map((text) =>
            referenceAddress(view, own, text, "agent"),
          ),
          skills: skills.map((text) => referenceAddress(view, own, text, "skill")),
        },
      ];
    }),
    flows: sorted.flatMap((part) =>
      part.kind === "flow"
        ? [
            {
              address: address(part),
              description: part.definition.description ?? null,
              steps: part.definition.steps.length,
            },
          ]
        : [],
    ),
    tools: sorted.flatMap((part) =>
      part.kind === "tool"
        ? [
            {
              address: address(part),
              description: part.description,
              source: part.source,
              functions: sorted.flatMap((fn) =>
                fn.kind === "function" && fn.name.startsWith(`${part.name}.`)
                  ? [
                      {
                        address: address(fn),
                        description: fn.description,
                        modelName: modelVisibleName(part.name, fn.name.slice(part.name.length + 1)),
                      },
                    ]
                  : [],
              ),
            },
          ]
        : [],
    ),
    skills: sorted.flatMap((part) =>
      part.kind === "skill"
        ? [{ address: address(part), description: part.description, file: part.file }]
        : [],
    ),
    routines: (plugin.manifest.routines ?? []).map((routine) => ({
      name: routine.name,
      schedule: routine.schedule ?? null,
      event: routine.event ?? null,
      run: referenceAddress(view, own, routine.run, "agent-or-flow"),
    })),
    changes,
  };
}

/** Every part of the tenant by address, in kind order; `tag` keeps only the agents tagged so. */
export function entriesOf(view: TenantView, tag: string | undefined): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const plugin of view.plugins.values()) {
    for (const part of plugin.parts) {
      const entry = entryOf(part, owners(view, part) > 1);
      if (tag === undefined || entry.tags.includes(tag)) entries.push(entry);
    }
  }
  return entries.sort(comparePartRefs);
}

/** One part as the catalog lists it; `clash` says another plugin defines its name too. */
export function entryOf(part: StoredPart, clash: boolean): CatalogEntry {
  const tool = part.kind === "function" ? part.name.slice(0, part.name.indexOf(".")) : part.name;
  return {
    kind: part.kind,
    address: refOf(part).address,
    plugin: part.plugin,
    name: part.name,
    description: descriptionOf(part),
    tags: part.kind === "agent" ? (part.definition.tags ?? []) : [],
    modelName: part.kind === "function" ? modelVisibleName(tool, part.name.slice(tool.length + 1)) : null,
    clash,
  };
}

function descriptionOf(part: StoredPart): string | null {
  switch (part.kind) {
    case "agent":
    case "flow":
      return part.definition.description ?? null;
    default:
      return part.description;
  }
}

/** How many plugins define the name `part` has in its set of names. */
function owners(view: TenantView, part: StoredPart): number {
  const named =
    part.kind === "agent" || part.kind === "flow"
      ? view.runnables(part.name)
      : part.kind === "tool" || part.kind === "function"
        ? view.parts("tool", part.kind === "tool" ? part.name : part.name.slice(0, part.name.indexOf(".")))
        : [];
  return new Set(named.map((one) => one.plugin)).size;
}
