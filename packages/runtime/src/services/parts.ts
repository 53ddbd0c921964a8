// What an address a caller gives names, checked before an operation acts on it: the owner
// check, the caller's scope, and a refusal that says what the address is when it names another
// kind of part ("support-triage/tickets is a tool, not an agent").
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { Caller } from "../callers/index.js";
import { agentNotFound, inScope, type ServiceCore, scoped } from "./core.js";

const ARTICLES: Record<string, string> = {
  agent: "an agent",
  flow: "a flow",
  tool: "a tool",
  function: "a function",
  skill: "a skill",
};

/** What a surface says after "X is a tool, not an agent;": what to do instead. */
export type PartHint = (found: { readonly kind: string; readonly address: string }) => string;

export interface AgentAtOptions {
  /** An agent or a flow will do. */
  readonly flows: boolean;
  readonly hint: PartHint;
  /** The part when the tenant has nothing of that name at all; the NOT_FOUND error when left out. */
  readonly missing?: () => { plugin: string; name: string };
}

/**
 * The agent (or flow) `text` names, owner-checked and within the caller's scope. The address of
 * another kind of part is refused as NOT_FOUND saying what it is, with the surface's hint.
 */
export async function agentAt(
  core: ServiceCore,
  caller: Caller,
  text: string,
  options: AgentAtOptions,
): Promise<{ plugin: string; name: string }> {
  const { catalog } = core.deps;
  const tenant = caller.tenant;
  const kind = options.flows ? "agent-or-flow" : "agent";
  try {
    const part = await catalog.resolvePart(tenant, kind, text);
    if (scoped(caller)) {
      const entry = await catalog.lookup(tenant, part.address, { kind });
      if (!inScope(caller, entry)) {
        if (options.missing !== undefined) return options.missing();
        throw agentNotFound(caller, text, kind);
      }
    }
    return { plugin: part.plugin, name: part.name };
  } catch (error) {
    // A tenant that does not exist is refused as it is, whatever the address.
    if (!isOz0Error(error, "NOT_FOUND") || (error.data as { kind?: string } | undefined)?.kind === "tenant") {
      throw error;
    }
    const looked = await catalog.lookup(tenant, text).catch(() => undefined);
    // An agent or flow outside a scoped caller's agents is as good as missing.
    const other =
      looked !== undefined && (looked.kind === "agent" || looked.kind === "flow") && !inScope(caller, looked)
        ? undefined
        : looked;
    if (other === undefined && options.missing !== undefined) return options.missing();
    // The catalog's refusal may name the closest part, which a scoped caller may not see.
    if (other === undefined || other.kind === "agent")
      throw scoped(caller) ? agentNotFound(caller, text, kind) : error;
    const wanted = options.flows ? "an agent or a flow" : "an agent";
    throw new Oz0Error(
      "NOT_FOUND",
      `${other.address} is ${ARTICLES[other.kind] ?? other.kind}, not ${wanted}; ${options.hint(other)}`,
      { data: { kind: options.flows ? "agent or flow" : "agent", name: text, tenant } },
    );
  }
}
