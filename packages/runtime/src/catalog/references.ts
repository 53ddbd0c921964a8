// What a plugin names of other parts (its uses: entries and grants, its agents' tools,
// delegation and skills, its flows' steps, its routines), and whether each holds in a tenant.
// Installs check a plugin's own references; updates and removes check the other plugins'.
import {
  type Address,
  type AddressPattern,
  type AgentDefinition,
  formatAddress,
  isOz0Error,
  notOwnedMessage,
  resolvePattern,
  resolveReference,
} from "@oz0/sdk";
import { isToolRef, parseToolRef, toolRefProblem } from "@oz0/sdk/internal";
// semver by function: its index loads all of its 47 modules.
import satisfies from "semver/functions/satisfies.js";
import { missingFunctionProblem } from "../lint/index.js";
import type { StoredPart } from "./parts.js";
import type { StoredPlugin, TenantView } from "./view.js";

/**
 * What a reference names: `plugin` is a whole plugin (`web/*`, a grant of every skill);
 * `manifest` a function by the `kind: Tool` manifest that describes it
 * (`samples:tools/memory-search.tool.yaml`, whose name is the manifest's path).
 */
export type ReferenceKind = "function" | "tool" | "agent" | "agent-or-flow" | "skill" | "plugin" | "manifest";

/** Where in the plugin's files a reference is written: the file, and the keys to its value. */
export interface ReferencePlace {
  readonly file: string;
  readonly path: readonly (string | number)[];
}

export interface PartReference {
  readonly type: "part";
  readonly at?: ReferencePlace;
  /** Where the plugin names it, for messages: `uses: github tools`, `agent triage (agents/triage.md) tools`. */
  readonly where: string;
  /** The reference as written. */
  readonly text: string;
  readonly kind: ReferenceKind;
  /** The plugin the text names; `undefined` for a bare name, which means the plugin's own part first. */
  readonly plugin: string | undefined;
  /** The part's bare name: `<tool>.<function>` for a function, the plugin's name for `plugin`. */
  readonly name: string;
}

/** A `uses:` entry: the plugin must be installed, at a version in the range when one is given. */
export interface VersionReference {
  readonly type: "version";
  readonly at?: ReferencePlace;
  readonly where: string;
  readonly text: string;
  readonly plugin: string;
  readonly range: string | undefined;
}

/** A reference that does not read as an address at all. */
export interface InvalidReference {
  readonly type: "invalid";
  readonly at?: ReferencePlace;
  readonly where: string;
  readonly text: string;
  readonly problem: string;
}

export type Reference = PartReference | VersionReference | InvalidReference;

/** Whether a reference holds, and the plugins it lands on (or names, when it does not hold). */
export interface Resolution {
  readonly holds: boolean;
  readonly problem: string;
  readonly targets: readonly string[];
}

/** Every reference `plugin` makes, from its manifest and its stored agents, each with its place. */
export function referencesOf(plugin: StoredPlugin): Reference[] {
  const own = plugin.name;
  const { manifest } = plugin;
  const inManifest = (...path: (string | number)[]): ReferencePlace => ({ file: MANIFEST_FILE, path });
  const refs: (Reference | undefined)[] = [];
  for (const [used, entry] of Object.entries(manifest.uses ?? {})) {
    refs.push({
      type: "version",
      where: "uses:",
      text: used,
      plugin: used,
      range: entry.version,
      at: inManifest("uses", used),
    });
    const grant = (kind: ReferenceKind, field: string, index: number, text: string, name: string) => {
      refs.push({
        type: "part",
        where: `uses: ${used} ${field}`,
        text,
        kind,
        plugin: used,
        name,
        at: inManifest("uses", used, field, index),
      });
    };
    (entry.tools ?? []).forEach((text, index) => {
      const [tool = "", fn = ""] = text.split(".");
      if (fn === "*") grant("tool", "tools", index, text, tool);
      else grant("function", "tools", index, text, text);
    });
    (entry.agents ?? []).forEach((name, index) => {
      grant("agent", "agents", index, name, name);
    });
    (entry.skills ?? []).forEach((name, index) => {
      if (name === "*") grant("plugin", "skills", index, name, used);
      else grant("skill", "skills", index, name, name);
    });
  }
  for (const part of plugin.parts) {
    if (part.kind === "agent") {
      // An inline agent sits in plugin.yaml's agents: list; one in its own file at that file's root.
      const index = (manifest.agents ?? []).findIndex((agent) => agent.name === part.name);
      const base = part.file === MANIFEST_FILE ? ["agents", index] : [];
      refs.push(...agentReferences(own, part.name, part.file, part.definition, base));
    }
    if (part.kind === "flow") {
      const f = (manifest.flows ?? []).findIndex((flow) => flow.name === part.name);
      part.definition.steps.forEach((step, s) => {
        const where = `flow ${part.name} step ${step.id}`;
        if (step.call !== undefined) {
          refs.push(
            read(own, `${where} call`, step.call, "function", inManifest("flows", f, "steps", s, "call")),
          );
        }
        if (step.agent !== undefined) {
          refs.push(
            read(own, `${where} agent`, step.agent, "agent", inManifest("flows", f, "steps", s, "agent")),
          );
        }
      });
    }
  }
  (manifest.routines ?? []).forEach((routine, r) => {
    refs.push(
      read(
        own,
        `routine ${routine.name} run`,
        routine.run,
        "agent-or-flow",
        inManifest("routines", r, "run"),
      ),
    );
  });
  return refs.filter((ref): ref is Reference => ref !== undefined);
}

const MANIFEST_FILE = "plugin.yaml";

function agentReferences(
  own: string,
  name: string,
  file: string,
  definition: AgentDefinition,
  base: readonly (string | number)[],
): (Reference | undefined)[] {
  const where = `agent ${name} (${file})`;
  const at = (...path: (string | number)[]): ReferencePlace => ({ file, path: [...base, ...path] });
  const skills = definition.skills;
  const listed = Array.isArray(skills);
  const skillList = listed ? skills : (skills?.use ?? []);
  const apply = listed ? undefined : skills?.propose?.apply;
  return [
    ...(definition.tools ?? []).map((text, i) =>
      read(own, `${where} tools`, text, "function", at("tools", i)),
    ),
    ...(definition.delegation?.allow ?? []).map((text, i) =>
      read(own, `${where} delegation.allow`, text, "agent", at("delegation", "allow", i)),
    ),
    ...skillList.map((text, i) =>
      read(own, `${where} skills`, text, "skill", listed ? at("skills", i) : at("skills", "use", i)),
    ),
    apply === undefined
      ? undefined
      : read(own, `${where} skills.propose.apply`, apply, "function", at("skills", "propose", "apply")),
  ];
}

/** `<tool>.*` or `<plugin>/<tool>.*`, a whole tool in an agent's `tools:`; `oz.*` is not one. */
const WHOLE_TOOL = /^(?!oz\.)[^*]+\.\*$/;

/** Reads one reference written inside plugin `own`; built-ins name no plugin's part, so give nothing. */
function read(
  own: string,
  where: string,
  text: string,
  kind: "function" | "agent" | "agent-or-flow" | "skill",
  at?: ReferencePlace,
): Reference | undefined {
  const placed = at === undefined ? {} : { at };
  if (kind === "function" && isToolRef(text)) return { ...readToolRef(where, text), ...placed };
  // `<tool>.*` in tools: grants a whole tool, so what must hold is the tool.
  if (kind === "function" && WHOLE_TOOL.test(text)) {
    try {
      const { address, bare } = resolveReference(`${text.slice(0, -2)}.x`, {
        plugin: own,
        expect: "function",
      });
      if (address.kind !== "function") return undefined;
      return {
        type: "part",
        where,
        text,
        kind: "tool",
        plugin: bare ? undefined : address.plugin,
        name: address.tool,
        ...placed,
      };
    } catch (error) {
      if (!isOz0Error(error)) throw error;
      return { type: "invalid", where, text, problem: error.message, ...placed };
    }
  }
  let address: Address | AddressPattern;
  let bare: boolean;
  try {
    const resolved =
      // `tools:` lists functions by name, not patterns (agent-definition: tools); only skills take them.
      kind === "skill"
        ? resolvePattern(text, { plugin: own, of: kind })
        : resolveReference(text, { plugin: own, expect: kind === "agent-or-flow" ? "agent" : kind });
    address = resolved.address;
    bare = resolved.bare;
  } catch (error) {
    if (!isOz0Error(error)) throw error;
    return { type: "invalid", where, text, problem: error.message, ...placed };
  }
  const plugin = bare ? undefined : "plugin" in address ? address.plugin : undefined;
  const part = (kind: ReferenceKind, name: string): PartReference => ({
    type: "part",
    where,
    text,
    kind,
    plugin,
    name,
    ...placed,
  });
  switch (address.kind) {
    case "builtin":
      return undefined;
    case "function":
      return part("function", `${address.tool}.${address.function}`);
    case "plugin-wildcard":
      return part("plugin", address.plugin);
    case "agent":
    case "flow":
      return part(kind === "agent-or-flow" ? "agent-or-flow" : "agent", address.name);
    case "skill":
      return part("skill", address.name);
  }
}

/** A `<plugin>:tools/<file>.tool.yaml` reference, which always names its plugin. */
function readToolRef(where: string, text: string): Reference {
  const ref = parseToolRef(text);
  if (ref === undefined) {
    return { type: "invalid", where, text, problem: toolRefProblem(text) ?? `'${text}' is not a reference` };
  }
  return { type: "part", where, text, kind: "manifest", plugin: ref.plugin, name: ref.path };
}

/** The tool a plugin's `kind: Tool` manifest at `path` describes, and its one function. */
function manifestTool(view: TenantView, plugin: string, path: string): string | undefined {
  const tool = view.plugin(plugin)?.parts.find((part) => part.kind === "tool" && part.manifest === path);
  if (tool === undefined) return undefined;
  const fn = view
    .plugin(plugin)
    ?.parts.find((part) => part.kind === "function" && part.name.startsWith(`${tool.name}.`));
  return fn?.name;
}

/** Whether `ref`, made by plugin `from`, holds in `view`. */
export function resolveIn(view: TenantView, from: string, ref: Reference): Resolution {
  if (ref.type === "invalid") return { holds: false, problem: ref.problem, targets: [] };
  if (ref.type === "version") return resolveVersion(view, ref);
  if (ref.plugin !== undefined) {
    const problem = lookIn(view, ref.plugin, ref);
    return { holds: problem === undefined, problem: problem ?? "", targets: [ref.plugin] };
  }
  const ownProblem = lookIn(view, from, ref);
  if (ownProblem === undefined) return { holds: true, problem: "", targets: [from] };
  // A bare name of another plugin's part still works: names are unique in a tenant.
  const targets = [...view.plugins.keys()].filter(
    (plugin) => plugin !== from && lookIn(view, plugin, ref) === undefined,
  );
  if (targets.length > 0) return { holds: true, problem: "", targets };
  // A function of the plugin's own tool can only be its own: say what that tool lacks.
  const ownTool =
    ref.kind === "function" && view.find(from, "tool", splitFunction(ref.name)[0]) !== undefined;
  const problem = ownTool
    ? ownProblem
    : `no plugin in tenant ${view.tenant} defines ${KIND_WORDS[ref.kind]} ${ref.name}`;
  return { holds: false, problem, targets };
}

const KIND_WORDS: Record<ReferenceKind, string> = {
  function: "a function",
  tool: "a tool",
  agent: "an agent",
  "agent-or-flow": "an agent or flow",
  skill: "a skill",
  plugin: "a plugin",
  manifest: "a kind: Tool manifest",
};

function resolveVersion(view: TenantView, ref: VersionReference): Resolution {
  const installed = view.plugin(ref.plugin);
  const wants = ref.range === undefined ? "" : ` (uses: asks for ${ref.range})`;
  if (installed === undefined) {
    return {
      holds: false,
      problem: `${ref.plugin} is not installed in tenant ${view.tenant}${wants}`,
      targets: [ref.plugin],
    };
  }
  if (ref.range !== undefined && !satisfies(installed.version, ref.range)) {
    return {
      holds: false,
      problem: `${ref.plugin} ${installed.version} is installed, outside the range uses: asks for (${ref.range})`,
      targets: [ref.plugin],
    };
  }
  return { holds: true, problem: "", targets: [ref.plugin] };
}

/** Why plugin `plugin` of `view` does not have what `ref` names, or `undefined` when it has. */
function lookIn(view: TenantView, plugin: string, ref: PartReference): string | undefined {
  const installed = view.plugin(plugin);
  if (installed === undefined) return `${plugin} is not installed in tenant ${view.tenant}`;
  const at = `${plugin} ${installed.version}`;
  switch (ref.kind) {
    case "plugin":
      return undefined;
    case "function": {
      const [tool = "", fn = ""] = splitFunction(ref.name);
      const owned = view.find(plugin, "tool", tool);
      if (owned === undefined) {
        const owner = otherOwner(view.parts("tool", tool), plugin);
        return owner === undefined
          ? `${at} has no tool ${tool}`
          : notOwnedMessage({ address: { kind: "function", plugin, tool, function: fn }, owner });
      }
      if (owned.kind === "tool" && owned.source === "mcp") return undefined;
      return view.find(plugin, "function", ref.name) === undefined
        ? missingFunctionProblem(tool, at, fn)
        : undefined;
    }
    case "tool": {
      if (view.find(plugin, "tool", ref.name) !== undefined) return undefined;
      const owner = otherOwner(view.parts("tool", ref.name), plugin);
      return owner === undefined
        ? `${at} has no tool ${ref.name}`
        : notOwnedMessage({ address: { kind: "tool", plugin, tool: ref.name }, owner });
    }
    case "agent":
    case "agent-or-flow": {
      const found = view.runnables(ref.name);
      const mine = found.find((part) => part.plugin === plugin);
      if (mine !== undefined) {
        return ref.kind === "agent" && mine.kind === "flow"
          ? `${formatAddress({ kind: "flow", plugin, name: ref.name })} is a flow, not an agent`
          : undefined;
      }
      const other = found.find((part) => part.plugin !== plugin);
      return other === undefined
        ? `${at} has no ${ref.kind === "agent" ? "agent" : "agent or flow"} ${ref.name}`
        : notOwnedMessage({
            address: { kind: other.kind === "flow" ? "flow" : "agent", plugin, name: ref.name },
            owner: other.plugin,
          });
    }
    case "skill":
      return view.find(plugin, "skill", ref.name) === undefined
        ? `${at} has no skill ${ref.name}`
        : undefined;
    case "manifest":
      return manifestTool(view, plugin, ref.name) === undefined
        ? `${at} has no kind: Tool manifest ${ref.name}`
        : undefined;
  }
}

function otherOwner(parts: readonly StoredPart[], plugin: string): string | undefined {
  return parts.find((part) => part.plugin !== plugin)?.plugin;
}

function splitFunction(name: string): [string, string] {
  const at = name.indexOf(".");
  return [name.slice(0, at), name.slice(at + 1)];
}

/**
 * A reference of plugin `own` as an address from the owner `view` knows: bare names get their
 * plugin; built-ins, and references that do not resolve, stay as written.
 * @example referenceAddress(view, "support-triage", "tickets.lookup", "function") // "support-triage/tickets.lookup"
 */
export function referenceAddress(
  view: TenantView,
  own: string,
  text: string,
  kind: "function" | "agent" | "agent-or-flow" | "skill",
): string {
  const ref = read(own, "", text, kind);
  if (ref === undefined || ref.type !== "part") return text;
  const owner = ref.plugin ?? resolveIn(view, own, ref).targets[0] ?? own;
  switch (ref.kind) {
    case "plugin":
      return `${ref.name}/*`;
    case "manifest": {
      const fn = manifestTool(view, owner, ref.name);
      return fn === undefined ? text : `${owner}/${fn}`;
    }
    case "tool":
      // A tool in a reference is always a wildcard over its functions (`<tool>.*`).
      return `${owner}/${ref.name}.*`;
    default:
      return `${owner}/${ref.name}`;
  }
}
