// What the agent contract's end-to-end tests share: a home with the contract fixture plugins
// and the merge-when-green example installed, and the shapes `--json` prints.
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { oz0, tempHome } from "../run-cli.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));
export const MERGE_WHEN_GREEN = fileURLToPath(
  new URL("../../../../examples/merge-when-green", import.meta.url),
);

/** A home with contract-helpers, contract and merge-when-green installed in tenant default. */
export async function contractHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const made = await tempHome();
  // A copy of contract: its wildcard agent's script changes after install (below).
  const contract = join(made.home, "plugins", "contract");
  await cp(`${FIXTURES}/contract`, contract, { recursive: true });
  for (const dir of [`${FIXTURES}/contract-helpers`, contract, MERGE_WHEN_GREEN]) {
    const installed = await oz0(["plugin", "install", dir, "--home", made.home]);
    if (installed.code !== 0) throw new Error(`installing ${dir} failed: ${installed.stderr}`);
  }
  // Install refuses a script that fails with a kind its agent does not declare (OZ-S025); only
  // a model's answer brings one to a job, so the wildcard agent's model answers so from here on,
  // in a bundle written past install's checks (an edit to the folder alone changes nothing).
  await writeFile(
    join(contract, "scripts", "wildcard.yaml"),
    'turns:\n  - call: { function: oz__fail, args: { kind: gave_up, message: "too hard" } }\n',
  );
  await bundlePast(made.home, "contract", contract);
  return { home: made.home, cleanup: made.cleanup };
}

/** Makes the installed `plugin` of tenant default run from the bundle of `dir`, past every install check. */
async function bundlePast(home: string, plugin: string, dir: string): Promise<void> {
  const { bundleFolder, openStore, packBundle } = await import("@oz0/runtime");
  const bundle = await bundleFolder(dir);
  const store = await openStore({ home });
  try {
    await store.db
      .insertInto("bundles")
      .values({
        digest: bundle.digest,
        archive: await packBundle(bundle),
        files: bundle.files.length,
        bytes: bundle.files.reduce((sum, file) => sum + file.bytes.byteLength, 0),
        created_at: Date.now(),
      })
      .onConflict((conflict) => conflict.column("digest").doNothing())
      .execute();
    await store.db
      .updateTable("plugins")
      .set({ bundle: bundle.digest })
      .where("tenant", "=", "default")
      .where("name", "=", plugin)
      .execute();
  } finally {
    await store.close();
  }
}

export interface Failure {
  kind: string;
  message: string;
  code?: string;
  retryable?: boolean;
  partial?: boolean;
  person?: boolean;
}

export interface RunShape {
  id: string;
  agent: string;
  status: string;
  output: unknown;
  failure: Failure | null;
}

export interface TraceEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

/** Runs oz0 in `home`. */
export function cli(home: string) {
  return (...args: string[]) => oz0([...args, "--home", home]);
}

/** The job's events, as `oz0 job trace --json` prints them. */
export async function trace(home: string, id: string): Promise<TraceEvent[]> {
  return (await cli(home)("job", "trace", id, "--json")).json<TraceEvent[]>();
}

export function ofKind(events: readonly TraceEvent[], kind: string): TraceEvent[] {
  return events.filter((entry) => entry.kind === kind);
}
