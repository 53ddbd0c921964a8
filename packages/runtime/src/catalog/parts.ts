// The parts a loaded plugin defines, as the catalog stores them: one row per agent, flow, tool,
// function and skill. A code tool's functions are listed by building it once at install, with a
// context that refuses file and process access, since only `run` may do I/O.
import { join } from "node:path";
import {
  type AgentDefinition,
  type FlowDefinition,
  type JsonSchemaObject,
  Oz0Error,
  type ToolContext,
  type ToolRuntime,
} from "@oz0/sdk";
import { buildTool } from "@oz0/sdk/internal";
import { type LoadedPlugin, pluginToolSpec } from "../plugin-dir/index.js";
import type { NewPart, PartKind, PartRow } from "../store/index.js";

export interface AgentPart {
  readonly kind: "agent";
  readonly plugin: string;
  readonly name: string;
  /** Where the agent is defined inside its plugin: `plugin.yaml` or `agents/<file>`. */
  readonly file: string;
  readonly definition: AgentDefinition;
}

export interface FlowPart {
  readonly kind: "flow";
  readonly plugin: string;
  readonly name: string;
  /** For a flow in code, its name and description, and no steps. */
  readonly definition: FlowDefinition;
  /** `code` for a flow registered with `host.addFlow`; YAML steps when left out. */
  readonly source?: "code";
}

export interface ToolPart {
  readonly kind: "tool";
  readonly plugin: string;
  readonly name: string;
  readonly description: string;
  /** `mcp`: the functions come from an MCP server when a job starts, so none are listed here. */
  readonly source: "code" | "mcp";
  /** The `kind: Tool` manifest that describes it (`tools/<file>.tool.yaml`), for one that does. */
  readonly manifest?: string;
}

export interface FunctionPart {
  readonly kind: "function";
  readonly plugin: string;
  /** `<tool>.<function>`. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

export interface SkillPart {
  readonly kind: "skill";
  readonly plugin: string;
  readonly name: string;
  readonly description: string;
  readonly file: string;
}

/** One part of an installed plugin. */
export type StoredPart = AgentPart | FlowPart | ToolPart | FunctionPart | SkillPart;

/** The parts `loaded` defines; `tenant` and `home` go into the context its tools are built with. */
export async function partsOf(
  loaded: LoadedPlugin,
  where: { tenant: string; home: string },
): Promise<StoredPart[]> {
  const plugin = loaded.manifest.name;
  const parts: StoredPart[] = [];
  for (const agent of loaded.agents) {
    parts.push({
      kind: "agent",
      plugin,
      name: agent.definition.name,
      file: agent.file,
      definition: agent.definition,
    });
  }
  for (const flow of loaded.manifest.flows ?? []) {
    parts.push({ kind: "flow", plugin, name: flow.name, definition: flow });
  }
  // A flow in code is listed by its name and description; its steps are its code's.
  for (const flow of loaded.code?.registrations("flow") ?? []) {
    const { description } = flow.spec;
    const definition = { name: flow.name, steps: [], ...(description === undefined ? {} : { description }) };
    parts.push({ kind: "flow", plugin, name: flow.name, definition, source: "code" });
  }
  const declared = loaded.manifest.tools ?? [];
  const described = loaded.toolManifests.filter((tool) => !declared.some((d) => d.id === tool.manifest.name));
  const tools = [
    ...declared.map((tool) => ({ id: tool.id, description: tool.description })),
    ...described.map((tool) => ({ id: tool.manifest.name, description: undefined })),
  ];
  for (const tool of tools) {
    const spec = pluginToolSpec(loaded, tool.id);
    const file = loaded.toolManifests.find((entry) => entry.manifest.name === tool.id)?.file;
    parts.push({
      kind: "tool",
      plugin,
      name: tool.id,
      description: tool.description ?? spec?.description ?? "",
      source: spec === undefined ? "mcp" : "code",
      ...(file === undefined ? {} : { manifest: file }),
    });
    if (spec === undefined) continue;
    const built = await buildTool(spec, listingContext(plugin, tool.id, loaded.dir, where));
    for (const fn of built.functions) {
      parts.push({
        kind: "function",
        plugin,
        name: `${tool.id}.${fn.name}`,
        description: fn.description,
        inputSchema: fn.inputSchema,
      });
    }
  }
  for (const skill of loaded.skills) {
    parts.push({ kind: "skill", plugin, name: skill.name, description: skill.description, file: skill.file });
  }
  return parts;
}

/** A part as a `parts` row: its kind-specific fields go into `definition` as JSON. */
export function partRow(tenant: string, part: StoredPart): NewPart {
  const { kind, plugin, name, ...rest } = part;
  return { tenant, kind, plugin, name, definition: JSON.stringify(rest) };
}

/** A `parts` row back as a part. Rows are the catalog's own writing, so their JSON is trusted. */
export function partFromRow(row: Pick<PartRow, "kind" | "plugin" | "name" | "definition">): StoredPart {
  const rest = JSON.parse(row.definition) as object;
  return { ...rest, kind: row.kind, plugin: row.plugin, name: row.name } as StoredPart;
}

/** The order parts are listed in everywhere: agents, flows, tools, functions, skills. */
export const PART_ORDER: readonly PartKind[] = ["agent", "flow", "tool", "function", "skill"];

/** Sorts parts by kind in PART_ORDER, then plugin, then name. */
export function comparePartRefs(
  a: { kind: PartKind; plugin: string; name: string },
  b: { kind: PartKind; plugin: string; name: string },
): number {
  return (
    PART_ORDER.indexOf(a.kind) - PART_ORDER.indexOf(b.kind) ||
    compareText(a.plugin, b.plugin) ||
    compareText(a.name, b.name)
  );
}

/** Byte order, the same on every machine and in every locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function listingContext(
  plugin: string,
  tool: string,
  dir: string,
  where: { tenant: string; home: string },
): ToolContext {
  const refuse = async (): Promise<never> => {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `tool '${tool}' of plugin '${plugin}': build(ctx) runs at install to list the tool's functions, so it may not read files or run processes; do that inside a function's run(args, call).`,
      { data: { plugin, detail: "build used the runtime at install" } },
    );
  };
  const runtime: ToolRuntime = { readFile: refuse, writeFile: refuse, listDir: refuse, exec: refuse };
  return {
    pluginId: plugin,
    tenant: where.tenant,
    platform: process.platform,
    paths: { home: where.home, userRoot: where.home, toolsBinDir: join(where.home, "bin"), agentRoot: dir },
    runtime,
    config: {},
  };
}
