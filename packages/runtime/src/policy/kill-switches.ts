// `oz0 kill agent|tool <address>`, `oz0 revive …` and `oz0 kill list`: tenant-wide off switches.
// An address is owner-checked before a switch is pulled, and every change moves the tenant's
// governance version on: a killed agent starts no job and its running jobs end at their next
// step (failure kind `killed`); a killed tool's calls are refused from the next call on.
import { formatAddress, isOz0Error, Oz0Error, parsePartAddress, parseToolAddress } from "@oz0/sdk";
import { listWords } from "../catalog/index.js";
import type { Store, SwitchKind } from "../store/index.js";
import { killedAgentError } from "./errors.js";
import { bumpGovernanceVersion, governanceOf } from "./governance.js";
import { checkTenant, type OwnerCheck } from "./owners.js";
import { harnessKindOf, remoteAgentCallOf } from "./tool-policy.js";

/** A switch as `oz0 kill list` shows it. */
export interface KillSwitchView {
  readonly kind: SwitchKind;
  /** `<plugin>/<agent>` or `<plugin>/<tool>`, from the owner the catalog knows. */
  readonly address: string;
  readonly by: string | null;
  /** Epoch milliseconds, by the database's clock. */
  readonly since: number;
}

/** What pulling a switch did. */
export interface KillReport {
  readonly switch: KillSwitchView;
  /** False when it was already on. */
  readonly changed: boolean;
}

export class KillSwitches {
  readonly #store: Store;
  readonly #owners: OwnerCheck;

  constructor(store: Store, owners: OwnerCheck) {
    this.#store = store;
    this.#owners = owners;
  }

  /**
   * Stops an agent or a tool in the tenant, after the owner check on its address.
   * @example await switches.kill("default", "tool", "github/oz0_github", "cli:me")
   */
  async kill(tenant: string, kind: SwitchKind, text: string, by: string): Promise<KillReport> {
    const part = { address: await this.switchAddress(tenant, kind, text) };
    return this.#store.transaction(async (trx) => {
      const find = () =>
        trx
          .selectFrom("kill_switches")
          .selectAll()
          .where("tenant", "=", tenant)
          .where("kind", "=", kind)
          .where("address", "=", part.address)
          .executeTakeFirst();
      const before = await find();
      if (before !== undefined) return { switch: switchView(before), changed: false };
      await trx
        .insertInto("kill_switches")
        .values({ tenant, kind, address: part.address, by, created_at: this.#store.clockSql })
        .execute();
      await bumpGovernanceVersion(trx, tenant);
      const row = await find();
      if (row === undefined) throw new Error(`the kill switch of ${part.address} was not written`);
      return { switch: switchView(row), changed: true };
    });
  }

  /**
   * Turns a switch off. The address is owner-checked while the part is installed; a switch on a
   * part since removed is found by the address it was pulled under.
   */
  async revive(tenant: string, kind: SwitchKind, text: string): Promise<KillSwitchView> {
    const address = await this.addressOf(tenant, kind, text);
    return this.#store.transaction(async (trx) => {
      const row = await trx
        .selectFrom("kill_switches")
        .selectAll()
        .where("tenant", "=", tenant)
        .where("kind", "=", kind)
        .where("address", "=", address)
        .executeTakeFirst();
      if (row === undefined) {
        throw new Oz0Error(
          "NOT_FOUND",
          `${kind} ${address} is not stopped by a kill switch in tenant ${tenant}; oz0 kill list shows the switches that are on.`,
          { data: { kind: "kill switch", name: address, tenant } },
        );
      }
      await trx
        .deleteFrom("kill_switches")
        .where("tenant", "=", tenant)
        .where("kind", "=", kind)
        .where("address", "=", address)
        .execute();
      await bumpGovernanceVersion(trx, tenant);
      return switchView(row);
    });
  }

  /** The switches that are on, agents first, then by address. */
  async list(tenant: string): Promise<KillSwitchView[]> {
    await checkTenant(this.#store.db, tenant);
    const rows = await this.#store.db
      .selectFrom("kill_switches")
      .selectAll()
      .where("tenant", "=", tenant)
      .orderBy("kind")
      .orderBy("address")
      .execute();
    return rows.map(switchView);
  }

  /** Refuses to start a job of `agent` (an address from the owner check) while its switch is on. */
  async assertAgentRuns(tenant: string, agent: string): Promise<void> {
    await assertAgentRuns(this.#store, tenant, agent);
  }

  /**
   * The address a switch of `text` is pulled under, after the owner check. A name two plugins
   * define runs neither, but each clashing part can still be stopped by its address, so that
   * it stays stopped once the clash is resolved by removing the other plugin.
   */
  private async switchAddress(tenant: string, kind: SwitchKind, text: string): Promise<string> {
    try {
      return (await this.#owners.resolvePart(tenant, kind, text)).address;
    } catch (error) {
      // An ACP harness's tool kinds are the functions of `<plugin>/<harness>`: its switch stops them all.
      if (isOz0Error(error, "NOT_FOUND") && kind === "tool" && text.includes("/")) {
        const address = parseToolAddress(text);
        if (await harnessKindOf(this.#owners, tenant, address.plugin, address.tool))
          return formatAddress(address);
        // A remote agent's calls are the functions of `<plugin>/<agent>`: its switch stops them all.
        if (await remoteAgentCallOf(this.#store, tenant, address.plugin, address.tool))
          return formatAddress(address);
      }
      if (!isOz0Error(error, "NAME_CLASH") && !isOz0Error(error, "TOOL_CLASH")) throw error;
      const plugins = clashingPlugins(error.data);
      if (!text.includes("/")) {
        const choices = plugins.map((plugin) => `${plugin}/${text}`);
        throw new Oz0Error(
          error.code,
          `${error.message} To stop one of them, name it by its address: ${listWords(choices, "or")}.`,
          { data: { ...error.data } },
        );
      }
      const address = kind === "agent" ? parsePartAddress(text, "agent") : parseToolAddress(text);
      if (plugins.includes(address.plugin)) return formatAddress(address);
      throw error;
    }
  }

  private async addressOf(tenant: string, kind: SwitchKind, text: string): Promise<string> {
    try {
      return await this.switchAddress(tenant, kind, text);
    } catch (error) {
      if (!isOz0Error(error, "NOT_FOUND")) throw error;
      await checkTenant(this.#store.db, tenant);
      return formatAddress(kind === "agent" ? parsePartAddress(text, "agent") : parseToolAddress(text));
    }
  }
}

/** Throws KILLED when agent `address` of `tenant` is stopped by a kill switch. */
export async function assertAgentRuns(store: Store, tenant: string, address: string): Promise<void> {
  const killed = (await governanceOf(store).current(tenant)).agents.get(address);
  if (killed !== undefined) throw killedAgentError(killed);
}

/** The plugins a NAME_CLASH or TOOL_CLASH error names. */
function clashingPlugins(data: unknown): string[] {
  const plugins = (data as { plugins?: unknown } | undefined)?.plugins;
  return Array.isArray(plugins)
    ? plugins.filter((plugin): plugin is string => typeof plugin === "string")
    : [];
}

function switchView(row: {
  kind: SwitchKind;
  address: string;
  by: string | null;
  created_at: number;
}): KillSwitchView {
  return { kind: row.kind, address: row.address, by: row.by, since: Number(row.created_at) };
}
