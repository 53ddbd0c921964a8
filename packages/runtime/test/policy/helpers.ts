// What the governance tests share: a runtime over a store of each engine, with the vault
// fixture plugin installed in a fresh tenant per test, and the count of every function
// execution the vault's tools made.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JobEngine, type JobEvent, type JobView } from "../../src/jobs/index.js";
import type { LanguageModel, ModelRequest } from "../../src/models/index.js";
import { governanceInterceptor } from "../../src/policy/index.js";
import { Runtime } from "../../src/runtime.js";
import type { StoreOptions } from "../../src/store/index.js";

export const VAULT = fileURLToPath(new URL("../fixtures/policy/vault", import.meta.url));
export const VAULT_2 = fileURLToPath(new URL("../fixtures/policy/vault-2", import.meta.url));
/** Words approval requests (pre_approval) and notes kill switches (on_kill_switch). */
export const REVIEWERS = fileURLToPath(new URL("../fixtures/policy/reviewers", import.meta.url));

/** Who decides approvals and pulls switches in these tests. */
export const ALICE = "alice";

interface VaultCall {
  readonly fn: string;
  /** The call's idempotency key, `<job>:<call>`. */
  readonly key: string;
  readonly args: unknown;
}

/** Every execution of a vault fixture function in this process. */
export function vaultCalls(): VaultCall[] {
  const global = globalThis as { __oz0VaultCalls?: VaultCall[] };
  global.__oz0VaultCalls ??= [];
  return global.__oz0VaultCalls;
}

/** The executions of job `job`'s calls. */
export function executionsOf(job: string): VaultCall[] {
  return vaultCalls().filter((call) => call.key.startsWith(`${job}:`));
}

let tenants = 0;

/** A fresh tenant name, unique in the test process. */
export function freshTenant(): string {
  tenants += 1;
  return `t${process.pid}-${tenants}`;
}

export interface Lab {
  readonly runtime: Runtime;
  readonly home: string;
  /** Installs the vault plugin into a fresh tenant and returns the tenant. */
  tenant(plugin?: string): Promise<string>;
  /** Starts a job of `agent` in `tenant` and runs it here until it stops. */
  run(tenant: string, agent: string, input?: unknown, jobs?: JobEngine): Promise<JobView>;
  events(id: string): Promise<JobEvent[]>;
  /** A job engine on the same store whose every agent runs on `model`. */
  engine(model: LanguageModel): JobEngine;
  /** A new runtime on the same store, as another process (or this one after a restart) opens it. */
  reopen(): Promise<Runtime>;
  close(): Promise<void>;
}

/** A runtime over a new database made from `store` (a fixture's options). */
export async function lab(store: StoreOptions = { memory: true }): Promise<Lab> {
  const home = store.home ?? (await mkdtemp(join(tmpdir(), "oz0-policy-")));
  const open = () =>
    Runtime.open({ home, databaseUrl: store.databaseUrl, memory: store.memory, defaultPlugins: [] });
  const runtime = await open();
  const opened: Runtime[] = [runtime];
  return {
    runtime,
    home,
    async tenant(plugin = VAULT) {
      const tenant = freshTenant();
      await runtime.catalog.install(tenant, plugin);
      return tenant;
    },
    async run(tenant, agent, input = "go", jobs = runtime.jobs) {
      const started = await jobs.start({ tenant, agent, input });
      return jobs.run(started.id, { tenant: started.tenant });
    },
    // The job's own tenant: the helper is handed only its ID.
    events: async (id) =>
      runtime.jobs.events(id, { tenant: (await runtime.jobs.jobs.get(id))?.tenant ?? "" }),
    engine: (model) =>
      new JobEngine({
        store: runtime.store,
        source: runtime.catalog,
        home,
        models: async () => model,
        interceptors: [governanceInterceptor(runtime.store)],
      }),
    async reopen() {
      const again = await open();
      opened.push(again);
      return again;
    },
    async close() {
      for (const one of opened) await one.close();
      if (store.home === undefined) await rm(home, { recursive: true, force: true });
    },
  };
}

/** A model that answers each step with the reply planned for it, the same after any restart. */
export function planned(
  replies: readonly { readonly calls?: readonly { name: string; args: unknown }[]; readonly text?: string }[],
): LanguageModel {
  return {
    id: "test:planned",
    async generate(request: ModelRequest) {
      const reply = replies[request.step - 1];
      if (reply === undefined) throw new Error(`no reply planned for step ${request.step}`);
      return {
        calls: reply.calls ?? [],
        ...(reply.text === undefined ? {} : { text: reply.text }),
        usage: { inputTokens: 10, outputTokens: 5 },
      };
    },
  };
}

export function kinds(events: readonly JobEvent[]): string[] {
  return events.map((entry) => entry.kind);
}

export function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}

/** The results the model was told, by call. */
export function results(events: readonly JobEvent[]): Record<string, { ok: boolean; code?: string }> {
  const out: Record<string, { ok: boolean; code?: string }> = {};
  for (const entry of ofKind(events, "tool_result")) {
    out[entry.data.callId] = entry.data.ok
      ? { ok: true }
      : { ok: false, ...(entry.data.error === undefined ? {} : { code: entry.data.error.code }) };
  }
  return out;
}
