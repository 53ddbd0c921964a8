// Skill proposals (skills.propose): an agent proposes a skill with oz.propose_skill, the
// proposal is recorded for a person to review, and approving it opens the pull request through
// the agent's apply function, with the arguments the platform sets (repository, base, patch,
// title, body, draft) beside the agent's fixed ones. Nothing reaches the repository unless a
// person approves: review is always required.
import { createHash } from "node:crypto";
import { type AgentDefinition, ERROR_CODES, type ErrorCode, type FunctionCall, Oz0Error } from "@oz0/sdk";
import { stringifyYaml } from "@oz0/sdk/internal";
import { unifiedPatch } from "../cards/index.js";
import { reachRefusal } from "../catalog/index.js";
import { readInPlugin } from "../plugin-dir/index.js";
import type { ProposalStatus, SkillProposalRow, Store } from "../store/index.js";
import { type CallInterceptor, dispatchCall, FunctionResolver, type PartSource } from "../tools/index.js";

/** An agent's `skills.propose`. */
export type ProposeSettings = NonNullable<
  Exclude<NonNullable<AgentDefinition["skills"]>, readonly string[]>["propose"]
>;

/** A proposal as the CLI and the API show it. */
export interface ProposalView {
  readonly id: string;
  readonly tenant: string;
  readonly job: string;
  /** The proposing agent by address. */
  readonly agent: string;
  /** The plugin whose skills it changes. */
  readonly into: string;
  readonly skill: string;
  readonly description: string;
  readonly body: string;
  readonly title: string;
  readonly why: string | null;
  readonly status: ProposalStatus;
  readonly decidedBy: string | null;
  readonly reason: string | null;
  /** What the apply function returned when the pull request was opened. */
  readonly result: unknown;
  readonly apply: string;
  readonly repository: string;
  readonly createdAt: number;
  readonly decidedAt: number | null;
}

/** Where a job's proposals come from: the job, its agent, and the agent's propose settings. */
export interface ProposalSource {
  readonly tenant: string;
  readonly job: string;
  readonly agent: string;
  readonly plugin: string;
  readonly settings: ProposeSettings;
}

/** The base branch a pull request goes to when the approver names none. */
export const DEFAULT_PROPOSAL_BASE = "main";

/**
 * What oz.propose_skill runs in a job: records the proposal once per call (a call run again
 * after a crash finds it recorded) and tells the model it waits for a person.
 */
export function proposalRecorder(
  store: Store,
  source: ProposalSource,
): (args: Record<string, unknown>, call: FunctionCall) => Promise<unknown> {
  return async (args, call) => {
    const id = proposalId(call.idempotencyKey);
    const skill = String(args.name);
    await store.db
      .insertInto("skill_proposals")
      .values({
        id,
        tenant: source.tenant,
        job_id: source.job,
        agent: source.agent,
        plugin: source.plugin,
        into_plugin: source.settings.into,
        skill,
        description: String(args.description),
        body: String(args.body),
        title: typeof args.title === "string" && args.title !== "" ? args.title : `Skill ${skill}`,
        why: typeof args.why === "string" ? args.why : null,
        settings: JSON.stringify(source.settings),
        created_at: store.clockSql,
      })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .execute();
    return {
      proposal: id,
      status: "pending",
      review: `a person reviews it (oz0 skill proposals); approving it opens a pull request on ${source.settings.repository}`,
    };
  };
}

/** A proposal's ID, the same for every attempt of the call that made it. */
function proposalId(key: string): string {
  return `sp-${createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
}

export interface SkillProposalsOptions {
  readonly store: Store;
  readonly source: PartSource;
  readonly home: string;
  /** What the apply call passes on the dispatch path: policy, hooks, kill switches. */
  readonly interceptors?: readonly CallInterceptor[];
}

export class SkillProposals {
  readonly #options: SkillProposalsOptions;

  constructor(options: SkillProposalsOptions) {
    this.#options = options;
  }

  /** The tenant's proposals, newest first; `status` keeps one status. */
  async list(tenant: string, options: { readonly status?: ProposalStatus } = {}): Promise<ProposalView[]> {
    let query = this.#options.store.db.selectFrom("skill_proposals").selectAll().where("tenant", "=", tenant);
    if (options.status !== undefined) query = query.where("status", "=", options.status);
    const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
    return rows.map(view);
  }

  async get(tenant: string, id: string): Promise<ProposalView> {
    return view(await this.row(tenant, id));
  }

  /**
   * The patch approving the proposal would send: the skill's SKILL.md in the plugin it goes
   * into, as installed now, turned into the proposed one.
   */
  async patch(tenant: string, id: string): Promise<{ path: string; patch: string }> {
    return this.patchOf(tenant, await this.row(tenant, id));
  }

  /**
   * Opens the pull request: calls the agent's apply function on the dispatch path with the
   * fixed arguments and the ones the platform sets, and marks the proposal approved by `by`.
   * A refused or failed call leaves it pending and throws with the call's error.
   */
  async approve(
    tenant: string,
    id: string,
    by: string,
    options: { readonly base?: string | undefined; readonly draft?: boolean | undefined } = {},
  ): Promise<{ proposal: ProposalView; address: string; result: unknown }> {
    const row = await this.row(tenant, id);
    expectPending(row);
    const settings = JSON.parse(row.settings) as ProposeSettings;
    const { patch } = await this.patchOf(tenant, row);
    const resolver = new FunctionResolver(this.#options.source, { tenant, home: this.#options.home });
    const resolved = await resolver.resolve(settings.apply, row.plugin);
    if (resolved.kind === "builtin") {
      throw new Oz0Error(
        "INVALID_ADDRESS",
        `skills.propose.apply of ${row.agent} names the built-in ${settings.apply}; it names the function that opens a pull request, <tool>.<function>.`,
        { data: { input: settings.apply, form: "<tool>.<function>" } },
      );
    }
    const { fn } = resolved;
    // Another plugin's apply function runs only when the agent's plugin's uses: grants it, and
    // the tenant's admin granted that.
    if (fn.plugin !== undefined) {
      const own = await resolver.plugin(row.plugin);
      const refusal = await reachRefusal(this.#options.source, tenant, own.manifest, {
        kind: "function",
        plugin: fn.plugin,
        tool: fn.tool,
        function: fn.function,
      });
      if (refusal !== undefined) {
        throw new Oz0Error(refusal.code, `proposal ${row.id} stays pending: ${refusal.message}`, {
          data: { ...refusal.data },
        });
      }
    }
    const args = {
      ...(settings.arguments ?? {}),
      repository: settings.repository,
      base: options.base ?? DEFAULT_PROPOSAL_BASE,
      patch,
      title: row.title,
      body: pullRequestBody(row, by),
      draft: options.draft ?? false,
    };
    const outcome = await dispatchCall(
      fn,
      args,
      {
        tenant,
        jobId: row.job_id,
        callId: `approve-${row.id}`,
        idempotencyKey: `proposal:${row.id}`,
        agent: row.agent,
        address: fn.address,
        attempt: 1,
        signal: new AbortController().signal,
      },
      // A person's call for the job that proposed the skill: decided on the path, as any call no loop decided.
      {
        context: { origin: { kind: "job", job: row.job_id } },
        interceptors: this.#options.interceptors ?? [],
      },
    );
    if (!outcome.ok) {
      const code: ErrorCode =
        outcome.error.code in ERROR_CODES ? (outcome.error.code as ErrorCode) : "INTERNAL";
      throw new Oz0Error(
        code,
        `proposal ${row.id} stays pending: ${fn.address} did not open the pull request: ${outcome.error.message}`,
        { data: { proposal: row.id, address: fn.address } },
      );
    }
    await this.decide(row, "approved", by, { result: JSON.stringify(outcome.result) });
    return { proposal: await this.get(tenant, id), address: fn.address, result: outcome.result };
  }

  /** Rejects the proposal; nothing is sent anywhere. */
  async reject(tenant: string, id: string, by: string, reason?: string): Promise<ProposalView> {
    const row = await this.row(tenant, id);
    expectPending(row);
    await this.decide(row, "rejected", by, { reason: reason ?? null });
    return this.get(tenant, id);
  }

  private async decide(
    row: SkillProposalRow,
    status: "approved" | "rejected",
    by: string,
    more: { readonly result?: string; readonly reason?: string | null },
  ): Promise<void> {
    const { store } = this.#options;
    const updated = await store.db
      .updateTable("skill_proposals")
      .set({ status, decided_by: by, decided_at: store.clockSql, ...more })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    // Someone else decided it meanwhile.
    if (Number(updated.numUpdatedRows) === 0) expectPending(await this.row(row.tenant, row.id));
  }

  private async patchOf(tenant: string, row: SkillProposalRow): Promise<{ path: string; patch: string }> {
    const settings = JSON.parse(row.settings) as ProposeSettings;
    const into = await this.#options.source.loadInstalled(tenant, row.into_plugin);
    const existing = into.skills.find((skill) => skill.name === row.skill);
    const inPlugin = existing?.file ?? `skills/${row.skill}/SKILL.md`;
    const before = existing === undefined ? undefined : await readInPlugin(into.dir, inPlugin);
    const folder =
      settings.path === undefined || settings.path === "." ? "" : `${settings.path.replace(/\/+$/, "")}/`;
    const path = `${folder}${inPlugin}`;
    return { path, patch: unifiedPatch(path, before, skillFile(row)) };
  }

  private async row(tenant: string, id: string): Promise<SkillProposalRow> {
    const row = await this.#options.store.db
      .selectFrom("skill_proposals")
      .selectAll()
      .where("tenant", "=", tenant)
      .where("id", "=", id)
      .executeTakeFirst();
    if (row === undefined) {
      throw new Oz0Error(
        "NOT_FOUND",
        `there is no skill proposal ${id} in tenant ${tenant}; oz0 skill proposals lists them.`,
        { data: { kind: "skill proposal", name: id, tenant } },
      );
    }
    return row;
  }
}

/** The SKILL.md the proposal would write: its front matter, then its body. */
export function skillFile(row: Pick<SkillProposalRow, "skill" | "description" | "body">): string {
  const front = stringifyYaml({ name: row.skill, description: row.description }).trimEnd();
  return `---\n${front}\n---\n${row.body.trimEnd()}\n`;
}

function pullRequestBody(row: SkillProposalRow, by: string): string {
  const lines = [row.why ?? `A proposed ${row.skill} skill for ${row.into_plugin}.`, ""];
  lines.push(`Proposed by agent ${row.agent} in job ${row.job_id} (proposal ${row.id}); approved by ${by}.`);
  return lines.join("\n");
}

function expectPending(row: SkillProposalRow): void {
  if (row.status === "pending") return;
  throw new Oz0Error(
    "PROPOSAL_STATE_CONFLICT",
    `skill proposal ${row.id} was already ${row.status}${row.decided_by === null ? "" : ` by ${row.decided_by}`}; a proposal is decided once.`,
    { data: { proposal: row.id, status: row.status } },
  );
}

function view(row: SkillProposalRow): ProposalView {
  const settings = JSON.parse(row.settings) as ProposeSettings;
  return {
    id: row.id,
    tenant: row.tenant,
    job: row.job_id,
    agent: row.agent,
    into: row.into_plugin,
    skill: row.skill,
    description: row.description,
    body: row.body,
    title: row.title,
    why: row.why,
    status: row.status,
    decidedBy: row.decided_by,
    reason: row.reason,
    result: row.result === null ? null : JSON.parse(row.result),
    apply: settings.apply,
    repository: settings.repository,
    createdAt: Number(row.created_at),
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
  };
}
