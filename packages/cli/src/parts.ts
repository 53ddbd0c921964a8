// What an address given on the command line names, checked before a command acts on it: the
// owner check, and a refusal that says what the address is when it names another kind of part
// ("support-triage/tickets is a tool, not an agent").
import type { Runtime } from "@oz0/runtime";

const ARTICLES: Record<string, string> = {
  agent: "an agent",
  flow: "a flow",
  tool: "a tool",
  function: "a function",
  skill: "a skill",
};

export interface AgentAtOptions {
  /** An agent or a flow will do. */
  readonly flows: boolean;
  /** What to do instead, said after what the address names. */
  readonly hint: (found: { kind: string; address: string }) => string;
  /** The part when the tenant has nothing of that name at all; the NOT_FOUND error when left out. */
  readonly missing?: () => { plugin: string; name: string };
}

/**
 * The agent `text` names (an agent or a flow when `flows` is set), owner-checked. An address of
 * another kind of part is refused as NOT_FOUND saying what it is, with `hint` after it.
 */
export async function agentAt(
  runtime: Runtime,
  tenant: string,
  text: string,
  options: AgentAtOptions,
): Promise<{ plugin: string; name: string }> {
  const { isOz0Error, Oz0Error } = await import("@oz0/sdk");
  try {
    const part = await runtime.catalog.resolvePart(tenant, options.flows ? "agent-or-flow" : "agent", text);
    return { plugin: part.plugin, name: part.name };
  } catch (error) {
    // A tenant that does not exist is refused as it is, whatever the address.
    if (!isOz0Error(error, "NOT_FOUND") || (error.data as { kind?: string } | undefined)?.kind === "tenant") {
      throw error;
    }
    const other = await runtime.catalog.lookup(tenant, text).catch(() => undefined);
    if (other === undefined && options.missing !== undefined) return options.missing();
    if (other === undefined || other.kind === "agent") throw error;
    const wanted = options.flows ? "an agent or a flow" : "an agent";
    throw new Oz0Error(
      "NOT_FOUND",
      `${other.address} is ${ARTICLES[other.kind] ?? other.kind}, not ${wanted}; ${options.hint(other)}`,
      { data: { kind: options.flows ? "agent or flow" : "agent", name: text, tenant } },
    );
  }
}
