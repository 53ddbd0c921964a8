// The plugin's measured listing, tools.listing.json: every function a model could be offered,
// with the name the model sees, its description and its input schema. Lint builds each tool
// the code registers with a context that has no file or process access (building must not
// need any), writes the listing beside plugin.yaml, and measures names from it.
import { formatAddress, type JsonSchemaObject, modelVisibleName, Oz0Error, type ToolContext } from "@oz0/sdk";
import { buildTool, parseSafeYaml, type Registration } from "@oz0/sdk/internal";
import type { ListingSource } from "./source.js";

export const LISTING_FILE = "tools.listing.json";

export interface ListedFunction {
  /** The name a model sees: `<tool>__<function>`. */
  readonly name: string;
  /** `<plugin>/<tool>.<function>`. */
  readonly address: string;
  readonly description: string;
  readonly input_schema: JsonSchemaObject;
}

export interface ToolListing {
  readonly plugin: string;
  readonly functions: readonly ListedFunction[];
}

/** A function described by a `kind: Tool` manifest, which needs no building. */
export interface ManifestFunction {
  readonly tool: string;
  readonly function: string;
  readonly description: string;
  readonly parameters: JsonSchemaObject;
}

/** A tool that failed to build, and why. */
export interface ListingProblem {
  readonly tool: string;
  readonly error: unknown;
}

/**
 * Builds every registered tool and lists its functions, then the `kind: Tool` functions.
 * A tool that fails to build is left out and returned among `problems`.
 */
export async function buildListing(
  plugin: string,
  tools: readonly Registration<"tool">[],
  manifestFunctions: readonly ManifestFunction[],
): Promise<{ listing: ToolListing; problems: ListingProblem[] }> {
  const functions: ListedFunction[] = [];
  const problems: ListingProblem[] = [];
  for (const { spec } of tools) {
    try {
      const built = await buildTool(spec, listingContext(plugin));
      for (const fn of built.functions) {
        functions.push(listed(plugin, spec.name, fn.name, fn.description, fn.inputSchema));
      }
    } catch (error) {
      problems.push({ tool: spec.name, error });
    }
  }
  for (const fn of manifestFunctions) {
    functions.push(listed(plugin, fn.tool, fn.function, fn.description, fn.parameters));
  }
  return { listing: { plugin, functions }, problems };
}

function listed(
  plugin: string,
  tool: string,
  fn: string,
  description: string,
  inputSchema: JsonSchemaObject,
): ListedFunction {
  return {
    name: modelVisibleName(tool, fn),
    address: formatAddress({ kind: "function", plugin, tool, function: fn }),
    description,
    input_schema: inputSchema,
  };
}

/** The listing as written to tools.listing.json, with the place of each value in that text. */
export function listingSource(listing: ToolListing): ListingSource {
  const text = `${JSON.stringify(listing, null, 2)}\n`;
  // JSON is YAML, so the safe reader gives the line and column of each function's name.
  return { file: LISTING_FILE, listing, text, doc: parseSafeYaml(text, { file: LISTING_FILE }) };
}

/** A tool context for building only: its runtime refuses every file and process operation. */
function listingContext(plugin: string): ToolContext {
  const refuse = (operation: string) => () =>
    Promise.reject(
      new Oz0Error(
        "INVALID_PLUGIN",
        `plugin '${plugin}': ${operation} was called while building a tool; build(ctx) only describes functions, so do file and process work in run(args, call)`,
        { data: { plugin, detail: `${operation} during build` } },
      ),
    );
  return {
    pluginId: plugin,
    tenant: "lint",
    platform: process.platform,
    paths: {
      home: "/oz0-lint/home",
      userRoot: "/oz0-lint/user",
      toolsBinDir: "/oz0-lint/bin",
      agentRoot: "/oz0-lint/agent",
    },
    runtime: {
      readFile: refuse("runtime.readFile"),
      writeFile: refuse("runtime.writeFile"),
      listDir: refuse("runtime.listDir"),
      exec: refuse("runtime.exec"),
    },
    config: {},
  };
}
