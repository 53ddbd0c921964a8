// `oz0 policy allow|ask|deny <pattern>`, `list` and `remove`: a tenant's tool policy rules.
// A pattern is owner-checked before it is written (`github/oz0_github.*` must name a tool
// github owns), one rule per pattern (setting a pattern again replaces its action), and every
// change moves the tenant's governance version on, so running jobs apply it at their next step.
import {
  BUILTIN_FUNCTIONS,
  type BuiltinAddress,
  type FunctionAddress,
  type FunctionPattern,
  formatAddress,
  isBuiltinFunction,
  Oz0Error,
  parsePattern,
  patternCovers,
  patternSpecificity,
} from "@oz0/sdk";
import { ACP_TOOL_KINDS, agentRuntimes } from "../runtimes/index.js";
import type { PolicyAction, Store } from "../store/index.js";
import { bumpGovernanceVersion } from "./governance.js";
import { checkTenant, type OwnerCheck } from "./owners.js";
import { CompiledPolicy, type PolicyDecision } from "./rules.js";

/** What a rule's pattern covers. */
export type PatternScope = "function" | "tool" | "plugin" | "built-in" | "built-ins";

/** A rule as `oz0 policy list` shows it. */
export interface PolicyRuleView {
  readonly pattern: string;
  readonly action: PolicyAction;
  readonly covers: PatternScope;
  /** 3 for one function, 2 for a tool's functions, 1 for a plugin's: the higher decides. */
  readonly specificity: number;
  /** Epoch milliseconds, by the database's clock. */
  readonly createdAt: number;
}

/** What setting a rule did. */
export interface PolicyChange {
  readonly rule: PolicyRuleView;
  /** The pattern's action before, or null for a new rule. */
  readonly previous: PolicyAction | null;
}

/** A rule not yet set, and what the tenant's rules decide with it and without it. */
export interface PolicyWhatIf {
  /** The pattern as it would be stored. */
  readonly pattern: string;
  covers(address: FunctionAddress | BuiltinAddress): boolean;
  now(address: FunctionAddress | BuiltinAddress): PolicyDecision | undefined;
  withRule(address: FunctionAddress | BuiltinAddress): PolicyDecision | undefined;
}

export class ToolPolicy {
  readonly #store: Store;
  readonly #owners: OwnerCheck;

  constructor(store: Store, owners: OwnerCheck) {
    this.#store = store;
    this.#owners = owners;
  }

  /**
   * Sets the rule for `text`, after the owner check on its plugin and tool.
   * @example await policy.set("default", "ask", "github/oz0_github.*")
   */
  async set(tenant: string, action: PolicyAction, text: string): Promise<PolicyChange> {
    const pattern = await this.checked(tenant, text);
    const key = formatAddress(pattern);
    return this.#store.transaction(async (trx) => {
      const before = await trx
        .selectFrom("policies")
        .select("action")
        .where("tenant", "=", tenant)
        .where("pattern", "=", key)
        .executeTakeFirst();
      if (before === undefined) {
        await trx
          .insertInto("policies")
          .values({ tenant, pattern: key, action, created_at: this.#store.clockSql })
          .execute();
      } else {
        await trx
          .updateTable("policies")
          .set({ action, created_at: this.#store.clockSql })
          .where("tenant", "=", tenant)
          .where("pattern", "=", key)
          .execute();
      }
      await bumpGovernanceVersion(trx, tenant);
      const row = await trx
        .selectFrom("policies")
        .selectAll()
        .where("tenant", "=", tenant)
        .where("pattern", "=", key)
        .executeTakeFirstOrThrow();
      return { rule: ruleView(row), previous: before?.action ?? null };
    });
  }

  /** Removes the rule for `text`; no owner check, so a rule on a removed plugin can go too. */
  async remove(tenant: string, text: string): Promise<PolicyRuleView> {
    await checkTenant(this.#store.db, tenant);
    const key = formatAddress(parsePattern(text, "function"));
    return this.#store.transaction(async (trx) => {
      const row = await trx
        .selectFrom("policies")
        .selectAll()
        .where("tenant", "=", tenant)
        .where("pattern", "=", key)
        .executeTakeFirst();
      if (row === undefined) {
        throw new Oz0Error(
          "NOT_FOUND",
          `tenant ${tenant} has no tool policy rule on ${key}; oz0 policy list shows its rules.`,
          { data: { kind: "policy rule", name: key, tenant } },
        );
      }
      await trx.deleteFrom("policies").where("tenant", "=", tenant).where("pattern", "=", key).execute();
      await bumpGovernanceVersion(trx, tenant);
      return ruleView(row);
    });
  }

  /** The tenant's rules, the most specific first, then by pattern. */
  async list(tenant: string): Promise<PolicyRuleView[]> {
    await checkTenant(this.#store.db, tenant);
    const rows = await this.#store.db
      .selectFrom("policies")
      .selectAll()
      .where("tenant", "=", tenant)
      .execute();
    return rows
      .map(ruleView)
      .sort(
        (a, b) =>
          b.specificity - a.specificity || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0),
      );
  }

  /**
   * Whether the address is a remote agent's own call, `<plugin>/<agent>.<function>`, which its
   * runtime makes in place of a model's (runtimes/a2a's send_message, runtimes/anthropic's
   * start_session, send_message and toolset tools): a rule may name it exactly.
   */
  #remoteCall(
    tenant: string,
    pattern: { plugin: string; tool: string; function?: string },
  ): Promise<boolean> {
    return remoteAgentCallOf(this.#store, tenant, pattern.plugin, pattern.tool, pattern.function);
  }

  /** An ACP harness's tool kind, which its permission requests are decided as (runtimes/harness). */
  private harnessKind(tenant: string, plugin: string, harness: string, kind?: string): Promise<boolean> {
    return harnessKindOf(this.#owners, tenant, plugin, harness, kind);
  }

  /** Parses `text` and runs the owner check on what it names. */
  /**
   * What the tenant's rules would decide with `action` set on `text` (checked as `set` checks
   * it), beside what they decide now: for an address, whether the pattern covers it, and the
   * deciding rule before and after. Nothing is stored.
   * @example (await policy.whatIf("default", "deny", "vault/*")).withRule(parseFunctionAddress("vault/vault.write"))
   */
  async whatIf(tenant: string, action: PolicyAction, text: string): Promise<PolicyWhatIf> {
    const pattern = await this.checked(tenant, text);
    const key = formatAddress(pattern);
    const rules = await this.list(tenant);
    const now = CompiledPolicy.compile(rules);
    const withRule = CompiledPolicy.compile([
      ...rules.filter((rule) => rule.pattern !== key),
      { pattern: key, action },
    ]);
    return {
      pattern: key,
      covers: (address) => patternCovers(pattern, address),
      now: (address) => now.decide(address),
      withRule: (address) => withRule.decide(address),
    };
  }

  private async checked(tenant: string, text: string): Promise<FunctionPattern> {
    const pattern = parsePattern(text, "function");
    switch (pattern.kind) {
      case "function":
        if (await this.#remoteCall(tenant, pattern)) break;
        await Promise.resolve(this.#owners.resolvePart(tenant, "function", text)).catch(
          async (error: unknown) => {
            if (!(await this.harnessKind(tenant, pattern.plugin, pattern.tool, pattern.function)))
              throw error;
          },
        );
        break;
      case "tool-wildcard":
        await Promise.resolve(
          this.#owners.resolvePart(tenant, "tool", `${pattern.plugin}/${pattern.tool}`),
        ).catch(async (error: unknown) => {
          if (await this.harnessKind(tenant, pattern.plugin, pattern.tool)) return;
          if (!(await this.#remoteCall(tenant, pattern))) throw error;
        });
        break;
      case "plugin-wildcard":
        await this.#owners.inspect(tenant, pattern.plugin);
        break;
      case "builtin":
        await checkTenant(this.#store.db, tenant);
        if (!isBuiltinFunction(pattern.function)) {
          throw new Oz0Error(
            "NOT_FOUND",
            `oz0 has no built-in ${text}; its built-ins: ${BUILTIN_FUNCTIONS.map((name) => `oz.${name}`).join(", ")}.`,
            { data: { kind: "function", name: text, tenant } },
          );
        }
        break;
      case "builtin-wildcard":
        await checkTenant(this.#store.db, tenant);
        break;
    }
    return pattern;
  }
}

/**
 * Whether `<plugin>/<agent>.<function>` names a call of a remote agent's runtime (every call of
 * it, without `fn`): the agent is installed in the tenant and its runtime governs its calls as
 * those functions (`AgentRuntime.remoteFunctions`).
 */
export async function remoteAgentCallOf(
  store: Store,
  tenant: string,
  plugin: string,
  agent: string,
  fn?: string,
): Promise<boolean> {
  const found = await store.db
    .selectFrom("parts")
    .select("definition")
    .where("tenant", "=", tenant)
    .where("kind", "=", "agent")
    .where("plugin", "=", plugin)
    .where("name", "=", agent)
    .executeTakeFirst();
  if (found === undefined) return false;
  const stored = (typeof found.definition === "string" ? JSON.parse(found.definition) : found.definition) as {
    definition?: { runtime?: unknown };
  };
  const runtime = stored.definition?.runtime;
  if (typeof runtime !== "string" || !runtime.startsWith("remote:")) return false;
  const functions = agentRuntimes.select(runtime)?.remoteFunctions ?? [];
  return fn === undefined ? functions.length > 0 : functions.includes(fn);
}

/** Whether `<plugin>/<harness>.<kind>` names an ACP harness's tool kind (every kind, without `kind`). */
export async function harnessKindOf(
  owners: OwnerCheck,
  tenant: string,
  plugin: string,
  harness: string,
  kind?: string,
): Promise<boolean> {
  if (owners.loadInstalled === undefined) return false;
  try {
    const loaded = await owners.loadInstalled(tenant, plugin);
    const spec = loaded.code?.registration("harness", harness)?.spec;
    return spec?.protocol === "acp" && (kind === undefined || ACP_TOOL_KINDS.includes(kind));
  } catch {
    return false;
  }
}

function ruleView(row: { pattern: string; action: PolicyAction; created_at: number }): PolicyRuleView {
  const pattern = parsePattern(row.pattern, "function");
  return {
    pattern: row.pattern,
    action: row.action,
    covers: SCOPES[pattern.kind],
    specificity: patternSpecificity(pattern),
    createdAt: Number(row.created_at),
  };
}

const SCOPES: Record<FunctionPattern["kind"], PatternScope> = {
  function: "function",
  "tool-wildcard": "tool",
  "plugin-wildcard": "plugin",
  builtin: "built-in",
  "builtin-wildcard": "built-ins",
};
