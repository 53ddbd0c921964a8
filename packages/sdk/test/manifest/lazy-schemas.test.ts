// Each test file gets the SDK's modules fresh, so what this file sees right after its imports
// is what every process that imports the SDK (each plugin's, each command's) pays for at load.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as internal from "../../src/internal/index.js";
import * as sdk from "../../src/manifest/index.js";

type Def = { type: string; _cachedInner?: unknown };

/** The manifest schemas the SDK exports, by name. */
function exportedSchemas(): [string, z.ZodType][] {
  const all = { ...sdk, ...internal } as Record<string, unknown>;
  return Object.entries(all).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);
}

describe("manifest schemas are built at their first parse, not when the SDK loads", () => {
  it("no exported schema is built by importing the SDK", () => {
    const schemas = exportedSchemas();
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(["pluginManifestSchema", "agentDefinitionSchema", "routineSchema"]),
    );
    const built = schemas.filter(([, schema]) => {
      const def = schema._zod.def as unknown as Def;
      return def.type !== "lazy" || def._cachedInner !== undefined;
    });
    expect(built.map(([name]) => name)).toEqual([]);
  });

  it("a parse builds the schemas it checks with, and they check as before", () => {
    const manifest = sdk.parsePluginManifest("name: notes\nversion: 1.0.0\nagents: [{ name: writer }]\n", {
      file: "plugin.yaml",
    });
    expect(manifest.agents?.[0]?.limits.max_turns).toBe(sdk.AGENT_LIMIT_DEFAULTS.max_turns);
    expect((sdk.pluginManifestSchema._zod.def as unknown as Def)._cachedInner).toBeDefined();
    expect(() => sdk.parsePluginManifest("name: notes\nversion: 1\n", { file: "plugin.yaml" })).toThrow(
      /version/,
    );
  });
});
