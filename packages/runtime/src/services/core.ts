// What every service shares: the runtime's parts, the role check each operation runs first,
// the one wrapper every change goes through (so the audit log attaches in one place), and the
// caller's agent scope. Internal to services/: surfaces reach it only through the services.
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { Audit } from "../audit/index.js";
import { type Caller, requireRole } from "../callers/index.js";
import type { Catalog } from "../catalog/index.js";
import type { ChannelHost } from "../channels/index.js";
import type { Identity } from "../identity/index.js";
import type { Approvals, JobEngine, JobView } from "../jobs/index.js";
import { jobNotFound } from "../jobs/index.js";
import type { McpManager } from "../mcp/index.js";
import type { Models } from "../models/index.js";
import type { PluginRuntimes } from "../plugin-runtimes/index.js";
import type { Inventory, KillSwitches, ToolPolicy } from "../policy/index.js";
import type { Routines } from "../routines/index.js";
import type { SkillProposals } from "../skills/index.js";
import type { Store } from "../store/index.js";
import type { ToolCaller } from "../tools/index.js";
import { SERVICE_ROLES, type ServiceAction } from "./roles.js";

/** The runtime's parts the services call; `Runtime` is one. */
export interface ServiceDeps {
  readonly home: string;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly jobs: JobEngine;
  readonly tools: ToolCaller;
  readonly policy: ToolPolicy;
  readonly approvals: Approvals;
  readonly killSwitches: KillSwitches;
  readonly inventory: Inventory;
  readonly models: Models;
  readonly mcp: McpManager;
  readonly proposals: SkillProposals;
  readonly routines: Routines;
  readonly channels: ChannelHost;
  readonly identity: Identity;
  readonly audit: Audit;
  readonly pluginRuntimes: PluginRuntimes;
  liveWorkers(): Promise<number>;
}

/**
 * One change a caller made, as the audit log records it: `{ caller, action, target, detail }`
 * is the audit's record as it stands, with who, what and the outcome spelled out beside it.
 */
export interface ChangeEvent {
  readonly caller: Caller;
  readonly tenant: string;
  readonly actor: string;
  readonly role: Caller["role"];
  /** The operation, `<area>.<method>`: `plugins.install`, `jobs.cancel`. */
  readonly action: ServiceAction;
  /** What it acted on: a job ID, a plugin, a pattern, an address. */
  readonly target: string;
  /** `ok` once it took effect; `failed` when it threw (the error's code in `error`). */
  readonly outcome: "ok" | "failed";
  readonly error?: string;
  /** The outcome (and the error's code) again, as the audit record's details. */
  readonly detail: Readonly<{ outcome: "ok" | "failed"; error?: string }>;
  /** Epoch milliseconds, by this process's clock. */
  readonly at: number;
}

/**
 * Told of every change, after it took effect or failed. It is awaited: a listener that throws
 * (an audit log that cannot write) fails the operation's answer, never silently.
 */
export type ChangeListener = (event: ChangeEvent) => void | Promise<void>;

export class ServiceCore {
  readonly deps: ServiceDeps;
  readonly #listeners: ChangeListener[] = [];

  constructor(deps: ServiceDeps, listener: ChangeListener | undefined) {
    this.deps = deps;
    if (listener !== undefined) this.#listeners.push(listener);
  }

  /** Adds a change listener; returns what removes it. */
  listen(listener: ChangeListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at !== -1) this.#listeners.splice(at, 1);
    };
  }

  /** The role check every operation runs before anything else, and the tenant it acts in. */
  check(caller: Caller, action: ServiceAction): string {
    requireTenantOf(caller);
    const rule = SERVICE_ROLES[action];
    requireRole(caller, rule.role, rule.does);
    return caller.tenant;
  }

  /** Runs a change: the role check first, then `work`, then the change event, ok or failed. */
  async change<T>(
    caller: Caller,
    action: ServiceAction,
    target: string,
    work: (tenant: string) => Promise<T>,
  ): Promise<T> {
    const tenant = this.check(caller, action);
    let result: T;
    try {
      result = await work(tenant);
    } catch (error) {
      // A change that did not happen answers with its own error, even should a listener fail too.
      await this.#emit(caller, action, target, isOz0Error(error) ? error.code : "INTERNAL").catch(() => {});
      throw error;
    }
    await this.#emit(caller, action, target, undefined);
    return result;
  }

  async #emit(
    caller: Caller,
    action: ServiceAction,
    target: string,
    error: string | undefined,
  ): Promise<void> {
    const outcome = error === undefined ? "ok" : "failed";
    const event: ChangeEvent = {
      caller,
      tenant: caller.tenant,
      actor: caller.actor,
      role: caller.role,
      action,
      target,
      outcome,
      ...(error === undefined ? {} : { error }),
      detail: error === undefined ? { outcome } : { outcome, error },
      at: Date.now(),
    };
    for (const listener of [...this.#listeners]) await listener(event);
  }

  /** Job `id` of the caller's tenant, answered as missing when its agent is outside the caller's scope. */
  async job(caller: Caller, id: string): Promise<JobView> {
    const view = await this.deps.jobs.get(id, caller.tenant);
    if (!jobInScope(caller, view)) throw jobNotFound(id);
    return view;
  }

  /**
   * The agent or flow `text` names, owner-checked. For a caller limited to some agents, one
   * outside them is refused exactly as one that does not exist, and no refusal names a part
   * (no "did you mean"), since the closest name could be outside the scope.
   */
  async agent(
    caller: Caller,
    text: string,
    kind: "agent" | "agent-or-flow",
  ): Promise<{
    plugin: string;
    name: string;
    kind: "agent" | "flow";
    address: string;
    tags: readonly string[];
  }> {
    const tenant = caller.tenant;
    try {
      const entry = await this.deps.catalog.lookup(tenant, text, { kind });
      const part = {
        plugin: entry.plugin,
        name: entry.name,
        kind: entry.kind as "agent" | "flow",
        address: entry.address,
        tags: entry.tags,
      };
      if (!inScope(caller, part)) throw agentNotFound(caller, text, kind);
      return part;
    } catch (error) {
      // The owner check names the part's owner: for a scoped caller, only when that part is in scope.
      if (scoped(caller) && isOz0Error(error, "OWNER_MISMATCH")) {
        const owner = (error.data as { owner?: string } | undefined)?.owner;
        const owned = await this.#ownedInScope(caller, text, owner, kind);
        if (!owned) throw agentNotFound(caller, text, kind);
        throw error;
      }
      if (
        scoped(caller) &&
        isOz0Error(error, "NOT_FOUND") &&
        (error.data as { kind?: string })?.kind !== "tenant"
      )
        throw agentNotFound(caller, text, kind);
      throw error;
    }
  }

  /** Whether the part `text` names, at its owner `owner`, is within the caller's scope. */
  async #ownedInScope(
    caller: Caller,
    text: string,
    owner: string | undefined,
    kind: "agent" | "agent-or-flow",
  ): Promise<boolean> {
    if (owner === undefined) return false;
    const name = text.slice(text.indexOf("/") + 1);
    try {
      const entry = await this.deps.catalog.lookup(caller.tenant, `${owner}/${name}`, { kind });
      return inScope(caller, entry);
    } catch {
      return false;
    }
  }
}

/**
 * Whether each of `items` (by agent address) is an agent within the caller's scope, by the
 * agents' tags as the catalog has them now; items of other kinds always are.
 */
export async function visibleAgents<T extends { readonly kind: string; readonly address: string }>(
  core: ServiceCore,
  caller: Caller,
  items: readonly T[],
): Promise<T[]> {
  if (!scoped(caller)) return [...items];
  const tags = new Map(
    (await core.deps.catalog.entries(caller.tenant))
      .filter((entry) => entry.kind === "agent")
      .map((entry) => [entry.address, entry.tags]),
  );
  return items.filter(
    (item) =>
      item.kind !== "agent" || inScope(caller, { address: item.address, tags: tags.get(item.address) }),
  );
}

/** Whether the caller sees only some agents. */
export function scoped(caller: Caller): boolean {
  return !caller.agents.includes("*");
}

/** Whether the agent (or flow) at `address` with `tags` is within the caller's agents. */
export function inScope(
  caller: Caller,
  part: { readonly address: string; readonly tags?: readonly string[] | undefined },
): boolean {
  for (const grant of caller.agents) {
    if (grant === "*" || grant === part.address) return true;
    if (grant.startsWith("tag:") && (part.tags ?? []).includes(grant.slice(4))) return true;
  }
  return false;
}

export function jobInScope(caller: Caller, job: Pick<JobView, "agent" | "tags">): boolean {
  return inScope(caller, { address: job.agent, tags: job.tags });
}

/** What a scoped caller is told about an agent that does not exist, or that it may not see: the same. */
export function agentNotFound(caller: Caller, text: string, kind: "agent" | "agent-or-flow"): Oz0Error {
  const what = kind === "agent" ? "agent" : "agent or flow";
  return new Oz0Error("NOT_FOUND", `no ${what} ${text} in tenant ${caller.tenant}`, {
    data: { kind: what, name: text, tenant: caller.tenant },
  });
}

/** A caller without a tenant is a surface's bug: refused before anything runs. */
export function requireTenantOf(caller: Caller): void {
  if (typeof caller?.tenant !== "string" || caller.tenant === "") {
    throw new Oz0Error("INVALID_INPUT", "a caller must name the tenant it acts in; none was given", {
      data: { issues: [{ path: "tenant", message: "required" }] },
    });
  }
}
