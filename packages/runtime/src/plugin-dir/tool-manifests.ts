// `kind: Tool` manifests (`tools/<name>.tool.yaml`): each describes one function in YAML and
// names the ES module export that runs it. The loader reads them beside the code entry and
// turns each into a tool spec, so every caller builds and calls them as it does the tools the
// code registers; an agent names one by address or by `<plugin>:tools/<file>.tool.yaml`.
import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import {
  type FunctionCall,
  type JsonSchemaObject,
  Oz0Error,
  parseToolManifest,
  type ToolContext,
  type ToolManifest,
  type ToolSpec,
} from "@oz0/sdk";
import { parseToolRef, TOOL_MANIFEST_DIR, YAML_LIMITS } from "@oz0/sdk/internal";
import { listInPlugin, readInPlugin, resolveInPlugin } from "./confine.js";
import type { LoadedAgent, LoadedPlugin } from "./load.js";

/** A tool spec with its plugin known, as the host records it. */
export type PluginToolSpec = ToolSpec & { readonly pluginId: string };

/**
 * What a manifest's entry exports under `spec.export`: the function's handler. It gets the
 * arguments checked against `spec.parameters`, the call, and the plugin's tool context (its
 * memory providers, paths and config).
 */
export type ToolManifestHandler = (
  args: Record<string, unknown>,
  call: FunctionCall,
  ctx: ToolContext,
) => unknown;

export interface LoadedToolManifest {
  /** The manifest's path in the plugin: `tools/<file>.tool.yaml`. */
  readonly file: string;
  readonly manifest: ToolManifest;
  /** The tool it describes, as a registered spec whose one function runs the handler. */
  readonly spec: PluginToolSpec;
}

const MANIFEST_NAME = /\.tool\.ya?ml$/i;

/** Reads every `tools/*.tool.yaml` of the plugin at `root` and loads the handler each names. */
export async function loadToolManifests(root: string, plugin: string): Promise<LoadedToolManifest[]> {
  const names = (await listInPlugin(root, TOOL_MANIFEST_DIR)).filter((name) => MANIFEST_NAME.test(name));
  const loaded: LoadedToolManifest[] = [];
  for (const name of names) {
    const file = `${TOOL_MANIFEST_DIR}/${name}`;
    const text = await readInPlugin(root, file, { maxBytes: YAML_LIMITS.maxBytes });
    const manifest = parseToolManifest(text, { file });
    const earlier = loaded.find((other) => other.manifest.name === manifest.name);
    if (earlier !== undefined) {
      throw new Oz0Error(
        "INVALID_PLUGIN",
        `plugin '${plugin}': ${earlier.file} and ${file} both describe tool ${manifest.name}; a tool ID is described once.`,
        { data: { plugin, detail: "tool described twice" } },
      );
    }
    const handler = await loadHandler(root, plugin, file, manifest);
    loaded.push({ file, manifest, spec: toolSpec(plugin, manifest, handler) });
  }
  return loaded;
}

async function loadHandler(
  root: string,
  plugin: string,
  file: string,
  manifest: ToolManifest,
): Promise<ToolManifestHandler> {
  const { entry, export: name } = manifest.spec;
  const path = await resolveInPlugin(root, entry, { file, field: "spec.entry" });
  // As for the code entry: the modification time makes an edited module load fresh.
  const { mtimeMs } = await stat(path);
  let module: Record<string, unknown>;
  try {
    module = await import(`${pathToFileURL(path).href}?v=${mtimeMs}`);
  } catch (cause) {
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${plugin}': ${file}: its spec.entry ${entry} failed to load: ${(cause as Error).message}`,
      { cause, data: { plugin, detail: "tool manifest entry failed to load" } },
    );
  }
  const handler = module[name];
  if (typeof handler !== "function") {
    const functions = Object.keys(module).filter((key) => typeof module[key] === "function");
    throw new Oz0Error(
      "INVALID_PLUGIN",
      `plugin '${plugin}': ${file}: ${entry} has no function exported as '${name}' (its functions: ${functions.join(", ") || "none"}); set spec.export to the one that runs ${manifest.spec.function}.`,
      { data: { plugin, detail: "tool manifest export is not a function" } },
    );
  }
  return handler as ToolManifestHandler;
}

function toolSpec(plugin: string, manifest: ToolManifest, handler: ToolManifestHandler): PluginToolSpec {
  return {
    pluginId: plugin,
    name: manifest.name,
    description: manifest.description,
    build: (ctx) => ({
      functions: [
        {
          name: manifest.spec.function,
          description: manifest.description,
          input: manifest.spec.parameters as JsonSchemaObject,
          run: (args, call) => handler(args, call, ctx),
        },
      ],
    }),
  };
}

/** The tool `id` of a loaded plugin: one its code registers, or one a manifest describes. */
export function pluginToolSpec(loaded: LoadedPlugin, id: string): PluginToolSpec | undefined {
  return (
    loaded.code?.registration("tool", id)?.spec ??
    loaded.toolManifests.find((tool) => tool.manifest.name === id)?.spec
  );
}

/**
 * Whether the plugin's code took tool `id` out of use (its registration's `disable()`): a
 * disabled tool is neither offered nor called, unless it is `required` (core: built even when
 * its plugin does not enable it).
 */
export function toolDisabled(loaded: Pick<LoadedPlugin, "code">, id: string): boolean {
  const registration = loaded.code?.registration("tool", id);
  return registration !== undefined && !registration.enabled && registration.spec.required !== true;
}

/** Every tool of a loaded plugin: the code's in registration order, then the manifests'. */
export function pluginToolSpecs(loaded: LoadedPlugin): PluginToolSpec[] {
  return [
    ...(loaded.code?.registrations("tool") ?? []).map((registration) => registration.spec),
    ...loaded.toolManifests.map((tool) => tool.spec),
  ];
}

/**
 * The function a `<plugin>:<path>` reference names in `loaded`, as `<tool>.<function>`; throws
 * NOT_FOUND, listing the plugin's manifests, when it has none at that path.
 */
export function toolRefTarget(loaded: LoadedPlugin, path: string): string {
  const found = loaded.toolManifests.find((tool) => tool.file === path);
  if (found !== undefined) return `${found.manifest.name}.${found.manifest.spec.function}`;
  const plugin = loaded.manifest.name;
  const files = loaded.toolManifests.map((tool) => tool.file);
  throw new Oz0Error(
    "NOT_FOUND",
    `${plugin}:${path}: plugin ${plugin} has no kind: Tool manifest ${path} (${files.length === 0 ? "it has none" : `it has ${files.join(", ")}`}).`,
    { data: { kind: "tool manifest", name: `${plugin}:${path}` } },
  );
}

/** Refuses an agent's reference to a manifest of its own plugin that the folder does not have. */
export function checkOwnToolRefs(
  plugin: string,
  agents: readonly LoadedAgent[],
  manifests: readonly LoadedToolManifest[],
): void {
  for (const agent of agents) {
    (agent.definition.tools ?? []).forEach((text, index) => {
      const ref = parseToolRef(text);
      if (ref === undefined || ref.plugin !== plugin) return;
      if (manifests.some((tool) => tool.file === ref.path)) return;
      const message = `'${text}' names no kind: Tool manifest of this plugin; ${manifests.length === 0 ? "it has none" : `it has ${manifests.map((tool) => tool.file).join(", ")}`}`;
      throw new Oz0Error("INVALID_MANIFEST", `${agent.file}: tools: ${message}`, {
        data: { issues: [{ file: agent.file, line: 0, column: 0, path: ["tools", index], message }] },
      });
    });
  }
}
