// The rules a change to a tenant's plugins must pass, each comparing the tenant before the
// change with the tenant after it: names stay unique, the changed plugin finds what it uses,
// and no other installed plugin loses what it uses; and the same rules as lint's problems
// against a tenant (`tenantProblems`), worded as install words them.
import { Oz0Error } from "@oz0/sdk";
import type { TenantProblem } from "../lint/index.js";
import type { PartKind } from "../store/index.js";
import { bulleted } from "./errors.js";
import type { StoredPart } from "./parts.js";
import { type Reference, type ReferencePlace, referencesOf, resolveIn } from "./references.js";
import { refOf } from "./resolve.js";
import type { StoredPlugin, TenantView } from "./view.js";

/** A name the change would add that another plugin (or the plugin itself, as the other kind) has. */
export interface TakenName {
  readonly kind: PartKind;
  readonly name: string;
  readonly owner: string;
  /** The owner's part: an agent and a flow share one set of names. */
  readonly ownerKind: PartKind;
}

/** A reference that does not hold after the change. */
export interface ReferenceProblem {
  /** The plugin that makes the reference. */
  readonly plugin: string;
  readonly where: string;
  readonly reference: string;
  readonly problem: string;
  /** Where the plugin writes it, when known. */
  readonly at?: ReferencePlace;
}

/**
 * Agent and flow names (one set) and tool IDs that `parts` of `plugin` would add while
 * another plugin of `before` has them; also an agent and a flow of `plugin` with one name.
 */
export function takenNames(before: TenantView, plugin: string, parts: readonly StoredPart[]): TakenName[] {
  const taken: TakenName[] = [];
  const own = new Map<string, PartKind>();
  for (const part of parts) {
    if (part.kind !== "agent" && part.kind !== "flow" && part.kind !== "tool") continue;
    const others = part.kind === "tool" ? before.parts("tool", part.name) : before.runnables(part.name);
    for (const other of others) {
      if (other.plugin !== plugin) {
        taken.push({ kind: part.kind, name: part.name, owner: other.plugin, ownerKind: other.kind });
      }
    }
    if (part.kind === "tool") continue;
    const earlier = own.get(part.name);
    if (earlier !== undefined)
      taken.push({ kind: part.kind, name: part.name, owner: plugin, ownerKind: earlier });
    own.set(part.name, part.kind);
  }
  return taken;
}

/** The references of `plugin` that do not hold in `after`. */
export function unmetReferences(after: TenantView, plugin: string): ReferenceProblem[] {
  const installed = after.plugin(plugin);
  if (installed === undefined) return [];
  return referencesOf(installed).flatMap((ref) => {
    const resolution = resolveIn(after, plugin, ref);
    return resolution.holds ? [] : [problemOf(plugin, ref, resolution.problem, true)];
  });
}

/**
 * The references of other plugins that concern `changed` and stop holding with the change.
 * After an update or remove, only what held before counts (what was broken already is not this
 * change's doing); an install is checked against everything the others name of it.
 */
export function brokenDependents(
  before: TenantView,
  after: TenantView,
  changed: string,
  action: "install" | "update" | "remove",
): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  for (const dependent of after.plugins.values()) {
    if (dependent.name === changed) continue;
    for (const ref of referencesOf(dependent)) {
      if (ref.type === "invalid") continue;
      const was = resolveIn(before, dependent.name, ref);
      const now = resolveIn(after, dependent.name, ref);
      if (now.holds) continue;
      const concerns = ref.plugin === changed || was.targets.includes(changed);
      if (!concerns) continue;
      if (action !== "install" && !was.holds) continue;
      problems.push(problemOf(dependent.name, ref, now.problem));
    }
  }
  return problems;
}

function problemOf(plugin: string, ref: Reference, problem: string, placed = false): ReferenceProblem {
  const found = { plugin, where: ref.where, reference: ref.text, problem };
  return !placed || ref.at === undefined ? found : { ...found, at: ref.at };
}

/** One line of a NAME_TAKEN refusal. */
function takenLine(one: TakenName, plugin: string): string {
  return one.owner === plugin
    ? `${one.kind} ${one.name} has the name of its own ${one.ownerKind} ${one.name}`
    : `${one.kind} ${one.name} is taken: ${one.owner} has ${one.ownerKind === "agent" ? "an agent" : `a ${one.ownerKind}`} of that name (${refOf({ kind: one.ownerKind, plugin: one.owner, name: one.name }).address})`;
}

/** One line of a USES_UNSATISFIED refusal. */
function unmetLine(one: ReferenceProblem): string {
  return `${one.where} ${one.reference}: ${one.problem}`;
}

/**
 * What installing `plugin` in the tenant `before` would be refused for (names another plugin
 * has, what it uses that is missing), each at its place and in install's words, for lint
 * against a tenant. The plugin's own installed version does not count as another plugin.
 */
export function tenantProblems(before: TenantView, plugin: StoredPlugin): TenantProblem[] {
  const others = before.without(plugin.name);
  const taken = takenNames(others, plugin.name, plugin.parts).map((one): TenantProblem => {
    const at = partPlace(plugin, one.kind, one.name);
    return { code: "OZ-S027", file: at.file, path: at.path, message: takenLine(one, plugin.name) };
  });
  const unmet = unmetReferences(others.with(plugin), plugin.name).map(
    (one): TenantProblem => ({
      code: "OZ-S026",
      file: one.at?.file ?? "plugin.yaml",
      path: one.at?.path ?? [],
      message: unmetLine(one),
    }),
  );
  return [...taken, ...unmet];
}

/** Where a plugin defines its part `name` of `kind` (a part its code registers: at main:). */
function partPlace(
  plugin: StoredPlugin,
  kind: PartKind,
  name: string,
): { file: string; path: (string | number)[] } {
  const { manifest } = plugin;
  if (kind === "agent") {
    const part = plugin.parts.find((one) => one.kind === "agent" && one.name === name);
    const file = part?.kind === "agent" ? part.file : "plugin.yaml";
    if (file !== "plugin.yaml") return { file, path: ["name"] };
    return {
      file,
      path: ["agents", (manifest.agents ?? []).findIndex((agent) => agent.name === name), "name"],
    };
  }
  if (kind === "flow") {
    const index = (manifest.flows ?? []).findIndex((flow) => flow.name === name);
    return { file: "plugin.yaml", path: index < 0 ? ["main"] : ["flows", index, "name"] };
  }
  const index = (manifest.tools ?? []).findIndex((tool) => tool.id === name);
  if (index >= 0) return { file: "plugin.yaml", path: ["tools", index, "id"] };
  const part = plugin.parts.find((one) => one.kind === "tool" && one.name === name);
  if (part?.kind === "tool" && part.manifest !== undefined) return { file: part.manifest, path: ["name"] };
  return { file: "plugin.yaml", path: ["main"] };
}

/** Refuses `plugin` when it would add a name another plugin has; `attempt` opens the message. */
export function refuseTakenNames(before: TenantView, plugin: StoredPlugin, attempt: string): void {
  const taken = takenNames(before, plugin.name, plugin.parts);
  if (taken.length === 0) return;
  const lines = taken.map((one) => takenLine(one, plugin.name));
  throw new Oz0Error(
    "NAME_TAKEN",
    `${attempt}:${bulleted(lines)}\nAgent and flow names (one set) and tool IDs are unique in a tenant: rename the part, or remove the plugin that has it first.`,
    {
      data: {
        tenant: before.tenant,
        plugin: plugin.name,
        taken: taken.map(({ kind, name, owner }) => ({ kind, name, owner })),
      },
    },
  );
}

/** Refuses `plugin` when what it uses does not hold in the tenant after the change. */
export function refuseUnmetUses(after: TenantView, plugin: StoredPlugin, attempt: string): void {
  const problems = unmetReferences(after, plugin.name);
  if (problems.length === 0) return;
  const count =
    problems.length === 1 ? "1 thing it uses is missing" : `${problems.length} things it uses are missing`;
  throw new Oz0Error(
    "USES_UNSATISFIED",
    `${attempt}: ${count}:${bulleted(problems.map(unmetLine))}\n` +
      "Install or update the plugins it uses first, or change what the plugin names.",
    {
      data: {
        tenant: after.tenant,
        plugin: plugin.name,
        problems: problems.map(({ where, reference, problem }) => ({ where, reference, problem })),
      },
    },
  );
}

/** Refuses a change that breaks other plugins unless a reason forces it; returns what was forced past. */
export function refuseBrokenDependents(
  before: TenantView,
  after: TenantView,
  changed: string,
  action: "install" | "update" | "remove",
  reason: string | null,
  attempt: string,
): ReferenceProblem[] {
  const problems = brokenDependents(before, after, changed, action);
  if (problems.length === 0 || reason !== null) return problems;
  if (action === "remove") refuseRemoveInUse(before.tenant, changed, problems, attempt);
  const fix =
    "Do not rename a part in place: ship the new name beside the old one, move those plugins to it, and drop the old one in a later version";
  throw new Oz0Error(
    "PART_IN_USE",
    `${attempt}: other installed plugins use what it would take away:${bulleted(
      problems.map((one) => `${one.plugin}, ${one.where} ${one.reference}: ${one.problem}`),
    )}\n${fix}; or go ahead anyway with --force --reason TEXT.`,
    { data: { tenant: before.tenant, plugin: changed, problems } },
  );
}

/**
 * Refuses a remove that takes away what other plugins use, naming each plugin that uses the
 * removed one and what it uses, and how to go on: remove or update those first. (Each
 * problem in `data` says how the reference would break once the plugin is gone.)
 */
function refuseRemoveInUse(
  tenant: string,
  removed: string,
  problems: readonly ReferenceProblem[],
  attempt: string,
): never {
  const users = [...new Set(problems.map((one) => one.plugin))];
  const named = users.join(", ");
  throw new Oz0Error(
    "PART_IN_USE",
    `${attempt}: ${named} ${users.length === 1 ? "uses" : "use"} it:${bulleted(
      problems.map((one) => `${one.plugin}, ${one.where} ${one.reference}`),
    )}\nRemove ${named} first (oz0 plugin remove ${users[0]}), or update ${users.length === 1 ? "it" : "them"} to a version that does not use ${removed}; ` +
      "or go ahead anyway with --force --reason TEXT.",
    { data: { tenant, plugin: removed, problems } },
  );
}
