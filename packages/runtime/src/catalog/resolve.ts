// The owner check: a part named after install, by address or bare name, looked up against the
// owner the store knows, before anything acts on it. A caller sees only what `visible` lets
// it: a part it may not see gets the very answer a name that does not exist gets.
import {
  type Address,
  type AddressForm,
  type BuiltinAddress,
  bareName,
  formatAddress,
  notOwnedMessage,
  Oz0Error,
  parseAddress,
  resolveReference,
} from "@oz0/sdk";
import { closestWord } from "@oz0/sdk/internal";
import type { Kysely } from "kysely";
import type { Database, PartKind } from "../store/index.js";
import { listWords, nameClashError, toolClashError } from "./errors.js";
import { partFromRow, type StoredPart } from "./parts.js";
import { requireTenant } from "./tenants.js";

/** What `resolvePart` looks for; `agent-or-flow` takes either, as `oz0 run` does. */
export type ResolveKind = PartKind | "agent-or-flow";

/** A part by owner: `name` is bare (`<tool>.<function>` for a function), `address` names the owner. */
export interface PartRef {
  readonly kind: PartKind;
  readonly plugin: string;
  readonly name: string;
  readonly address: string;
}

export interface ResolvedPart extends PartRef {
  /**
   * The text named no plugin and the part is not `fromPlugin`'s: a bare name of another
   * plugin's part, which works (names are unique in a tenant) but is reported as such.
   */
  readonly bare: boolean;
}

export interface ResolveOptions {
  /** The plugin the text was written in; its own parts win for a bare name. */
  readonly fromPlugin?: string | undefined;
  /**
   * Which parts the caller may see (a key scoped to some agents, say). The check runs after the
   * caller's permission; a part it may not see is answered exactly as one that does not exist.
   */
  readonly visible?: ((part: PartRef) => boolean) | undefined;
}

interface Wanted {
  readonly text: string;
  /** The plugin the text named; `undefined` for a bare name. */
  readonly plugin: string | undefined;
  /** Bare name: `<tool>.<function>` for a function. */
  readonly name: string;
}

const KIND_WORDS: Record<ResolveKind, string> = {
  agent: "agent",
  flow: "flow",
  "agent-or-flow": "agent or flow",
  tool: "tool",
  function: "function",
  skill: "skill",
};

/** Looks `text` up in `tenant` as a part of `kind`; see Catalog.resolvePart. */
export async function resolvePart(
  db: Kysely<Database>,
  tenant: string,
  kind: ResolveKind,
  text: string,
  options: ResolveOptions = {},
): Promise<ResolvedPart> {
  const wanted = parseWanted(kind, text);
  await requireTenant(db, tenant);
  const visible = options.visible ?? (() => true);
  const from = options.fromPlugin;
  const lookup = kind === "function" ? toolLookup(wanted) : { kinds: kindsOf(kind), name: wanted.name };
  const all = await partsNamed(db, tenant, lookup.kinds, lookup.name);
  const owners = [...new Set(all.map((part) => part.plugin))].sort();
  // For a function the tool is what has an owner; the caller sees the function itself.
  const seen = all.filter((part) => visible(refOf(kind === "function" ? asFunction(part, wanted) : part)));
  if (seen.length === 0) throw await notFound(db, tenant, kind, wanted, visible);

  if (kind === "skill") {
    const skill = resolveSkill(seen, wanted, from);
    if (skill === undefined) throw await notFound(db, tenant, kind, wanted, visible);
    return skill;
  }
  if (owners.length > 1) {
    throw kind === "tool" || kind === "function"
      ? toolClashError(lookup.name, owners)
      : nameClashError(wanted.name, owners);
  }
  const part = seen[0]!;
  if (wanted.plugin !== undefined && wanted.plugin !== part.plugin) {
    throw ownerMismatch(kind === "function" ? asFunction(part, wanted) : part, wanted);
  }
  if ((kind === "agent" || kind === "flow") && part.kind !== kind) {
    throw new Oz0Error(
      "NOT_FOUND",
      `no ${kind} ${text} in tenant ${tenant}: ${part.name} is ${part.kind === "agent" ? "an agent" : "a flow"} (${refOf(part).address})`,
      { data: { kind, name: text, tenant } },
    );
  }
  if (kind === "function") return resolveFunction(db, tenant, part, wanted, from);
  return { ...refOf(part), bare: wanted.plugin === undefined && part.plugin !== from };
}

/** Refuses `text` when it cannot name a part of `kind` at all, before any tenant is looked at. */
export function checkPartText(kind: ResolveKind, text: string): void {
  parseWanted(kind, text);
}

/** Texts read, by kind: a job's start and its set-up read the same few addresses again and again. */
const parsed = new Map<string, Wanted>();
/** Past this many, the texts read start again from none (a process reading ever new addresses). */
const PARSED_KEPT = 1_024;

function parseWanted(kind: ResolveKind, text: string): Wanted {
  const key = `${kind}\0${text}`;
  let wanted = parsed.get(key);
  if (wanted === undefined) {
    // A text that is no address throws each time, and is never kept.
    wanted = readWanted(kind, text);
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(key, wanted);
  }
  return wanted;
}

function readWanted(kind: ResolveKind, text: string): Wanted {
  const form: AddressForm = kind === "agent-or-flow" ? "agent" : kind;
  // A bare name is checked by the same reader, on behalf of a placeholder plugin it never names.
  const { address, bare } = text.includes("/")
    ? { address: parseAddress(text, form), bare: false }
    : resolveReference(text, { plugin: "bare", expect: form });
  if (address.kind === "builtin") throw builtinHasNoOwner(text);
  return { text, plugin: bare ? undefined : address.plugin, name: bareName(address) };
}

function builtinHasNoOwner(text: string): Oz0Error {
  return new Oz0Error(
    "INVALID_ADDRESS",
    `${text} is one of oz0's built-in functions, which belong to no plugin, so there is no owner to look up`,
    { data: { input: text, form: "function" } },
  );
}

function kindsOf(kind: Exclude<ResolveKind, "function">): PartKind[] {
  // Agents and flows share one set of names, so a clash between an agent and a flow counts.
  return kind === "agent" || kind === "flow" || kind === "agent-or-flow" ? ["agent", "flow"] : [kind];
}

/** A function is owned through its tool: look the tool up first. */
function toolLookup(wanted: Wanted): { kinds: PartKind[]; name: string } {
  return { kinds: ["tool"], name: wanted.name.slice(0, wanted.name.indexOf(".")) };
}

/** The function `wanted` names, as it would be if the tool `tool` has it. */
function asFunction(tool: StoredPart, wanted: Wanted): StoredPart {
  return {
    kind: "function",
    plugin: tool.plugin,
    name: wanted.name,
    description: "",
    inputSchema: { type: "object" },
  };
}

async function resolveFunction(
  db: Kysely<Database>,
  tenant: string,
  tool: StoredPart,
  wanted: Wanted,
  from: string | undefined,
): Promise<ResolvedPart> {
  const fn = asFunction(tool, wanted);
  // An MCP tool's functions come from its server when a job starts; the job checks the name then.
  if (tool.kind === "tool" && tool.source === "mcp") {
    return { ...refOf(fn), bare: wanted.plugin === undefined && tool.plugin !== from };
  }
  const found = await db
    .selectFrom("parts")
    .select("name")
    .where("tenant", "=", tenant)
    .where("plugin", "=", tool.plugin)
    .where("kind", "=", "function")
    .where("name", "=", wanted.name)
    .executeTakeFirst();
  if (found === undefined) {
    const [toolId, name] = [tool.name, wanted.name.slice(tool.name.length + 1)];
    throw new Oz0Error(
      "NOT_FOUND",
      `no function ${wanted.text} in tenant ${tenant}: tool ${toolId} (${refOf(tool).address}) has no function ${name}`,
      { data: { kind: "function", name: wanted.text, tenant } },
    );
  }
  return { ...refOf(fn), bare: wanted.plugin === undefined && tool.plugin !== from };
}

/**
 * Skill names are unique per plugin only: a bare one means the caller's own skill, else the
 * only one of that name. `undefined` when an address names a plugin without it and no single
 * other plugin has it either.
 */
function resolveSkill(
  seen: readonly StoredPart[],
  wanted: Wanted,
  from: string | undefined,
): ResolvedPart | undefined {
  const pick = (plugin: string | undefined) => seen.find((part) => part.plugin === plugin);
  if (wanted.plugin !== undefined) {
    const part = pick(wanted.plugin);
    if (part !== undefined) return { ...refOf(part), bare: false };
    if (seen.length === 1) throw ownerMismatch(seen[0]!, wanted);
    return undefined;
  }
  const part = pick(from) ?? (seen.length === 1 ? seen[0] : undefined);
  if (part === undefined) {
    const addresses = seen.map((one) => refOf(one).address);
    const plugins = seen.map((one) => one.plugin);
    throw new Oz0Error(
      "NAME_CLASH",
      `plugins ${listWords(plugins)} each define a skill named ${wanted.name}; name the one you mean by its address, such as ${addresses[0]}`,
      { data: { kind: "skill", name: wanted.name, plugins } },
    );
  }
  return { ...refOf(part), bare: part.plugin !== from };
}

function ownerMismatch(part: StoredPart, wanted: Wanted): Oz0Error {
  const address = addressOf({ ...part, plugin: wanted.plugin ?? "" });
  return new Oz0Error("OWNER_MISMATCH", notOwnedMessage({ address, owner: part.plugin }), {
    data: { address: wanted.text, owner: part.plugin },
  });
}

/** The same answer whether the part is missing or hidden: built from the question and visible names only. */
async function notFound(
  db: Kysely<Database>,
  tenant: string,
  kind: ResolveKind,
  wanted: Wanted,
  visible: (part: PartRef) => boolean,
): Promise<Oz0Error> {
  const kinds: PartKind[] = kind === "agent-or-flow" ? ["agent", "flow"] : [kind];
  const rows = await db
    .selectFrom("parts")
    .select(["kind", "plugin", "name", "definition"])
    .where("tenant", "=", tenant)
    .where("kind", "in", kinds)
    .execute();
  const known = rows
    .map((row) => refOf(partFromRow(row)))
    .filter(visible)
    .map((ref) => (wanted.plugin === undefined ? ref.name : ref.address));
  const guess = closestWord(wanted.text, known);
  const hint = guess === undefined ? "" : `; did you mean ${guess}?`;
  return new Oz0Error("NOT_FOUND", `no ${KIND_WORDS[kind]} ${wanted.text} in tenant ${tenant}${hint}`, {
    data: { kind: KIND_WORDS[kind], name: wanted.text, tenant },
  });
}

async function partsNamed(
  db: Kysely<Database>,
  tenant: string,
  kinds: readonly PartKind[],
  name: string,
): Promise<StoredPart[]> {
  const rows = await db
    .selectFrom("parts")
    .select(["kind", "plugin", "name", "definition"])
    .where("tenant", "=", tenant)
    .where("kind", "in", kinds)
    .where("name", "=", name)
    .orderBy("plugin")
    .execute();
  return rows.map(partFromRow);
}

/** A part by its owner's address. */
export function refOf(part: Pick<StoredPart, "kind" | "plugin" | "name">): PartRef {
  const { kind, plugin, name } = part;
  return { kind, plugin, name, address: formatAddress(addressOf(part)) };
}

/** The address of `name`, a part of `kind` of `plugin`. */
function addressOf(part: Pick<StoredPart, "kind" | "plugin" | "name">): Exclude<Address, BuiltinAddress> {
  const { kind, plugin, name } = part;
  if (kind === "tool") return { kind, plugin, tool: name };
  if (kind !== "function") return { kind, plugin, name };
  const dot = name.indexOf(".");
  return { kind, plugin, tool: name.slice(0, dot), function: name.slice(dot + 1) };
}
