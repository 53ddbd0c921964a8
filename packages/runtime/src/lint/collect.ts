// Where a plugin's files name other things: the paths of files it ships, and references to
// parts (functions, agents, flows, skills), each with the place it is written. The reader
// resolves the paths on disk; the rules check both.
import type { YamlPath } from "./finding.js";
import {
  type AgentSource,
  asList,
  asMap,
  asString,
  type PluginFiles,
  stringItems,
  type YamlSource,
} from "./source.js";

export interface PathReference {
  readonly source: YamlSource;
  readonly path: YamlPath;
  /** The field as an author reads it: `instructions`, `model.script`, `main`. */
  readonly field: string;
  readonly value: string;
  /** Whether the file is a JSON Schema that lint reads. */
  readonly schema: boolean;
}

/** What a reference names, and which list of a `uses:` entry grants it. */
export type ReferenceKind = "function" | "agent" | "agent-or-flow" | "skill";

export interface PartReference {
  readonly source: YamlSource;
  readonly path: YamlPath;
  readonly value: string;
  readonly kind: ReferenceKind;
  /** The field as an author reads it, for messages. */
  readonly field: string;
}

/** The parsed files references are read from. */
export type ReferringFiles = Pick<PluginFiles, "manifest" | "agents" | "toolManifests">;

/** Every path a plugin's files name, where it is written. */
export function pathReferences(files: ReferringFiles): PathReference[] {
  const found: PathReference[] = [];
  const add = (source: YamlSource, path: YamlPath, field: string, schema = false) => {
    const value = asString(valueIn(source, path));
    if (value !== undefined) found.push({ source, path, field, value, schema });
  };
  const { manifest } = files;
  if (manifest !== undefined) {
    add(manifest, ["main"], "main");
    add(manifest, ["model", "script"], "model.script");
  }
  for (const agent of files.agents) {
    // A Markdown agent's instructions are refused outright (OZ-S017), so they are not followed.
    if (agent.format !== "markdown") add(agent, [...agent.base, "instructions"], "instructions");
    add(agent, [...agent.base, "input_schema"], "input_schema", true);
    add(agent, [...agent.base, "output_schema"], "output_schema", true);
    add(agent, [...agent.base, "model", "script"], "model.script");
  }
  for (const tool of files.toolManifests) add(tool, ["spec", "entry"], "spec.entry");
  return found;
}

/** Every reference to a part in the plugin's manifest and agents, where it is written. */
export function partReferences(files: ReferringFiles): PartReference[] {
  const found: PartReference[] = [];
  const list = (source: YamlSource, path: YamlPath, kind: ReferenceKind, field: string) => {
    for (const item of stringItems(valueIn(source, path))) {
      found.push({ source, path: [...path, item.index], value: item.value, kind, field });
    }
  };
  const one = (source: YamlSource, path: YamlPath, kind: ReferenceKind, field: string) => {
    const value = asString(valueIn(source, path));
    if (value !== undefined) found.push({ source, path, value, kind, field });
  };
  for (const agent of files.agents) agentReferences(agent, list, one);
  const { manifest } = files;
  if (manifest === undefined) return found;
  (asList(manifest.raw.flows) ?? []).forEach((flow, f) => {
    (asList(asMap(flow)?.steps) ?? []).forEach((_step, s) => {
      one(manifest, ["flows", f, "steps", s, "call"], "function", "steps.call");
      one(manifest, ["flows", f, "steps", s, "agent"], "agent-or-flow", "steps.agent");
    });
  });
  (asList(manifest.raw.routines) ?? []).forEach((_routine, r) => {
    one(manifest, ["routines", r, "run"], "agent-or-flow", "routines.run");
  });
  return found;
}

type Add = (source: YamlSource, path: YamlPath, kind: ReferenceKind, field: string) => void;

function agentReferences(agent: AgentSource, list: Add, one: Add): void {
  const at = (...path: (string | number)[]) => [...agent.base, ...path];
  list(agent, at("tools"), "function", "tools");
  list(agent, at("delegation", "allow"), "agent", "delegation.allow");
  const skills = agent.agent.skills;
  if (asList(skills) !== undefined) list(agent, at("skills"), "skill", "skills");
  list(agent, at("skills", "use"), "skill", "skills.use");
  one(agent, at("skills", "propose", "apply"), "function", "skills.propose.apply");
}

function valueIn(source: YamlSource, path: YamlPath): unknown {
  let current: unknown = source.raw;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}
