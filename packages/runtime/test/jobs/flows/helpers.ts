// What the flow runner's tests share: a runtime over an in-memory store with the ledger-flows
// fixture installed, and the fixture's record of every ledger execution in this process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JobEvent } from "../../../src/jobs/index.js";
import { Runtime } from "../../../src/runtime.js";

export const LEDGER_FLOWS = fileURLToPath(new URL("../../fixtures/flows/ledger-flows", import.meta.url));
export const TENANT = "default";

export interface LedgerEntry {
  readonly key: string;
  readonly attempt: number;
  readonly entry: string;
}

/** The ledger executions of job `job`'s steps, in the order they ran. */
export function ledgerOf(job: string): LedgerEntry[] {
  const all = (globalThis as { __oz0FlowLedger?: LedgerEntry[] }).__oz0FlowLedger ?? [];
  return all.filter((line) => line.key.startsWith(`${job}:`));
}

/** A runtime with ledger-flows installed in tenant default; `close` removes its home. */
export async function ledgerRuntime(): Promise<{ runtime: Runtime; close: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "oz0-flows-"));
  const runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.catalog.install(TENANT, LEDGER_FLOWS);
  return {
    runtime,
    close: async () => {
      await runtime.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}
