// OZ-S019, OZ-S020 and OZ-S021: references to parts across plugins. A bare name means this
// plugin's part; a bare name of another plugin's part still works (names are unique in a
// tenant) but should be its address (OZ-S019, which --fix rewrites). Another plugin's part is
// usable only when uses: lists it, so that plugin is installed, and a job refuses what uses:
// does not grant (OZ-S020, a warning as the spec has it; at run time the refusal is
// NOT_GRANTED). Against a tenant, an address must name the plugin that owns the part (OZ-S021).
import {
  type Address,
  type BuiltinAddress,
  bareName,
  formatAddress,
  nameProblem,
  notOwnedMessage,
  Oz0Error,
  resolveReference,
} from "@oz0/sdk";
import { isToolRef, parseToolRef, toolRefProblem } from "@oz0/sdk/internal";
import { type PartReference, partReferences } from "../collect.js";
import { finding, type LintFinding } from "../finding.js";
import { asList, asMap, asString, type PluginFiles, placeOf, pluginName, stringItems } from "../source.js";
import type { TenantContext } from "../tenant.js";
import type { LintRule, RuleContext } from "./rule.js";

type PartAddress = Exclude<Address, BuiltinAddress>;

/** Part names (tool IDs for functions) and the plugin that owns each. */
interface Owners {
  readonly tools: Map<string, string>;
  readonly agents: Map<string, string>;
  readonly flows: Map<string, string>;
}

export const checkReferences: LintRule = (files, context) => {
  const self = pluginName(files);
  // References resolve against the plugin's name; without a valid one (the schema reports it) they cannot.
  if (self === undefined || nameProblem("plugin", self) !== undefined) return [];
  const own = ownParts(files, self);
  const tenant = tenantOwners(context.tenant, self);
  const uses = usesOwners(files);
  const found: LintFinding[] = [];
  for (const reference of partReferences(files)) {
    found.push(...checkReference(reference, { files, context, self, own, tenant, uses }));
  }
  return found;
};

interface Known {
  readonly files: PluginFiles;
  readonly context: RuleContext;
  readonly self: string;
  readonly own: Owners;
  readonly tenant: Owners;
  readonly uses: Owners;
}

function checkReference(reference: PartReference, known: Known): LintFinding[] {
  if (reference.kind === "skill") return checkSkill(reference, known);
  if (reference.kind === "function" && isToolRef(reference.value)) return checkToolRef(reference, known);
  const place = placeOf(reference.source, reference.path);
  // A whole tool (`fs.*`): install checks that the tool is there; its functions come and go.
  if (reference.kind === "function" && /^(?!oz\.)[^*]+\.\*$/.test(reference.value)) {
    try {
      resolveReference(`${reference.value.slice(0, -2)}.x`, { plugin: known.self, expect: "function" });
      return [];
    } catch (error) {
      if (error instanceof Oz0Error) return [finding("OZ-E001", place, error.message)];
      throw error;
    }
  }
  let address: Address;
  let bare: boolean;
  try {
    const resolved = resolveReference(reference.value, {
      plugin: known.self,
      expect: reference.kind === "function" ? "function" : "agent",
    });
    address = resolved.address;
    bare = resolved.bare;
  } catch (error) {
    if (error instanceof Oz0Error) return [finding("OZ-E001", place, error.message)];
    throw error;
  }
  if (address.kind === "builtin") return [];
  if (bare) {
    const owner = ownerOf(address, [known.own, known.tenant, known.uses]);
    if (owner?.plugin === known.self) return ownFunction(reference, address, known);
    if (owner === undefined) return [];
    const target = { ...address, kind: owner.kind, plugin: owner.plugin } as PartAddress;
    const written = formatAddress(target);
    return [
      finding(
        "OZ-S019",
        place,
        `'${reference.value}' is ${owner.plugin}'s ${owner.kind}, named bare; write its address ${written} (oz0 plugin lint --fix writes it)`,
        {
          severity: known.context.verified ? "error" : "warning",
          fix: { file: reference.source.file, path: reference.path, replacement: written },
        },
      ),
      ...checkGrant(reference, target, known),
    ];
  }
  if (address.plugin === known.self) return ownFunction(reference, address, known);
  const owner = ownerOf(address, [known.own, known.tenant]);
  if (owner !== undefined && owner.plugin !== address.plugin) {
    const named = { ...address, kind: owner.kind } as PartAddress;
    return [
      finding(
        "OZ-S021",
        place,
        `${notOwnedMessage({ address: named, owner: owner.plugin })}; write ${formatAddress({ ...named, plugin: owner.plugin })}`,
      ),
    ];
  }
  return checkGrant(
    reference,
    owner === undefined ? address : ({ ...address, kind: owner.kind } as PartAddress),
    known,
  );
}

/**
 * OZ-S026: a function of one of the plugin's own tools must be one the tool has, as install
 * requires. Known from the measured listing; an MCP tool's functions are listed only when a job
 * starts, so those are taken at their word.
 */
function ownFunction(reference: PartReference, address: PartAddress, known: Known): LintFinding[] {
  if (address.kind !== "function" || known.files.listing === undefined) return [];
  const tools = asList(known.files.manifest?.raw.tools) ?? [];
  const mcp = tools.some(
    (tool) => asString(asMap(tool)?.id) === address.tool && asMap(tool)?.mcp !== undefined,
  );
  if (mcp) return [];
  const prefix = `${known.self}/${address.tool}.`;
  const listed = known.files.listing.listing.functions.filter((fn) => fn.address.startsWith(prefix));
  // A tool with no listed function at all is one the code does not register (OZ-S018).
  if (listed.length === 0 || listed.some((fn) => fn.address === `${prefix}${address.function}`)) return [];
  const version = asString(known.files.manifest?.raw.version) ?? "";
  const problem = missingFunctionProblem(address.tool, `${known.self} ${version}`, address.function);
  return [finding("OZ-S026", placeOf(reference.source, reference.path), `${reference.value}: ${problem}`)];
}

/**
 * Why a function of a tool is missing, worded once for lint and install.
 * @example missingFunctionProblem("tickets", "support-triage 1.0.0", "lokup")
 * // "tool tickets of support-triage 1.0.0 has no function lokup"
 */
export function missingFunctionProblem(tool: string, plugin: string, fn: string): string {
  return `tool ${tool} of ${plugin} has no function ${fn}`;
}

/**
 * A `<plugin>:tools/<file>.tool.yaml` reference: well formed, and naming a manifest the plugin
 * has when it is the plugin's own; another plugin's manifests are checked at install.
 */
function checkToolRef(reference: PartReference, known: Known): LintFinding[] {
  const place = placeOf(reference.source, reference.path);
  const problem = toolRefProblem(reference.value);
  if (problem !== undefined) return [finding("OZ-E001", place, problem)];
  const ref = parseToolRef(reference.value);
  if (ref === undefined || ref.plugin !== known.self) return [];
  const files = known.files.toolManifests.map((tool) => tool.file);
  if (files.includes(ref.path)) return [];
  const has = files.length === 0 ? "it has none" : `it has ${files.join(", ")}`;
  return [
    finding("OZ-E001", place, `'${reference.value}' names no kind: Tool manifest of this plugin; ${has}`),
  ];
}

/** Who owns the part an address names, from the first source that knows. */
function ownerOf(
  address: PartAddress,
  sources: readonly Owners[],
): { plugin: string; kind: "function" | "agent" | "flow" } | undefined {
  for (const owners of sources) {
    if (address.kind === "function") {
      const plugin = owners.tools.get(address.tool);
      if (plugin !== undefined) return { plugin, kind: "function" };
    } else if (address.kind === "agent" || address.kind === "flow") {
      const agent = owners.agents.get(address.name);
      if (agent !== undefined) return { plugin: agent, kind: "agent" };
      const flow = owners.flows.get(address.name);
      if (flow !== undefined) return { plugin: flow, kind: "flow" };
    }
  }
  return undefined;
}

/** OZ-S020: the part of plugin `address.plugin` must be listed under that plugin's key of uses:. */
function checkGrant(reference: PartReference, address: PartAddress, known: Known): LintFinding[] {
  const plugin = address.plugin;
  const written = formatAddress(address);
  const place = placeOf(reference.source, reference.path);
  const entry = usesEntry(known.files, plugin);
  const list = address.kind === "function" ? "tools" : "agents";
  const name = bareName(address);
  if (entry === undefined) {
    return [
      finding(
        "OZ-S020",
        place,
        `${reference.field} names ${written}, but uses: does not list plugin '${plugin}'; add it under uses: with ${list}: [${name}]: ${plugin} must be installed, and ${refusedUntil(address)}`,
      ),
    ];
  }
  // uses: grants agents and functions; a flow needs only its plugin listed.
  if (address.kind === "flow") return [];
  const listed = stringItems(entry[list]).map((item) => item.value);
  const granted =
    address.kind === "function"
      ? listed.includes(name) || listed.includes(`${address.tool}.*`)
      : listed.includes(name);
  if (granted) return [];
  return [
    finding(
      "OZ-S020",
      place,
      `${reference.field} names ${written}, which uses.${plugin}.${list} does not list; add ${name} there: ${refusedUntil(address)}`,
    ),
  ];
}

/** What a job does with the ungranted part: the same refusal as at run time (NOT_GRANTED). */
function refusedUntil(address: PartAddress): string {
  const what = address.kind === "function" ? "a job's call of it" : "a job's delegation to it";
  return `${what} is refused (NOT_GRANTED) until uses: grants it`;
}

/** A skill of another plugin loads only when uses: declares it under that plugin's skills. */
function checkSkill(reference: PartReference, known: Known): LintFinding[] {
  const parts = reference.value.split("/");
  const [plugin, skill] = parts;
  if (parts.length !== 2 || plugin === undefined || skill === undefined || plugin === known.self) return [];
  const place = placeOf(reference.source, reference.path);
  const entry = usesEntry(known.files, plugin);
  if (entry === undefined) {
    return [
      finding(
        "OZ-S020",
        place,
        `${reference.field} names ${reference.value}, but uses: does not list plugin '${plugin}'; add it under uses: with skills: [${skill}]: until then a job leaves the skill out`,
      ),
    ];
  }
  const listed = stringItems(entry.skills).map((item) => item.value);
  if (listed.includes("*") || listed.includes(skill)) return [];
  return [
    finding(
      "OZ-S020",
      place,
      `${reference.field} names ${reference.value}, which uses.${plugin}.skills does not list; add ${skill} there (or * for every skill): until then a job leaves the skill out`,
    ),
  ];
}

function usesEntry(files: PluginFiles, plugin: string) {
  const uses = asMap(files.manifest?.raw.uses);
  return uses !== undefined && Object.hasOwn(uses, plugin) ? asMap(uses[plugin]) : undefined;
}

function emptyOwners(): Owners {
  return { tools: new Map(), agents: new Map(), flows: new Map() };
}

/** The parts this plugin defines: tool IDs it declares or registers, its agents and flows. */
function ownParts(files: PluginFiles, self: string): Owners {
  const owners = emptyOwners();
  const manifest = files.manifest?.raw;
  for (const tool of asList(manifest?.tools) ?? []) {
    const id = asString(asMap(tool)?.id);
    if (id !== undefined) owners.tools.set(id, self);
  }
  if (files.code.status === "loaded") {
    for (const registration of files.code.registrations) {
      if (registration.kind === "tool") owners.tools.set(registration.name, self);
    }
  }
  for (const tool of files.toolManifests) {
    const name = asString(tool.raw.name);
    if (name !== undefined) owners.tools.set(name, self);
  }
  for (const agent of files.agents) {
    const name = asString(agent.agent.name);
    if (name !== undefined) owners.agents.set(name, self);
  }
  for (const flow of asList(manifest?.flows) ?? []) {
    const name = asString(asMap(flow)?.name);
    if (name !== undefined) owners.flows.set(name, self);
  }
  return owners;
}

/** The parts of the tenant's other plugins. */
function tenantOwners(tenant: TenantContext | undefined, self: string): Owners {
  const owners = emptyOwners();
  for (const plugin of tenant?.plugins ?? []) {
    if (plugin.name === self) continue;
    for (const tool of plugin.tools ?? []) owners.tools.set(tool, plugin.name);
    for (const fn of plugin.functions ?? []) owners.tools.set(fn.split(".")[0] ?? fn, plugin.name);
    for (const agent of plugin.agents ?? []) owners.agents.set(agent, plugin.name);
    for (const flow of plugin.flows ?? []) owners.flows.set(flow, plugin.name);
  }
  return owners;
}

/** What uses: says other plugins own: the tool IDs and agents listed under each plugin's key. */
function usesOwners(files: PluginFiles): Owners {
  const owners = emptyOwners();
  for (const [plugin, value] of Object.entries(asMap(files.manifest?.raw.uses) ?? {})) {
    const entry = asMap(value);
    for (const fn of stringItems(entry?.tools)) owners.tools.set(fn.value.split(".")[0] ?? fn.value, plugin);
    for (const agent of stringItems(entry?.agents)) owners.agents.set(agent.value, plugin);
  }
  return owners;
}
