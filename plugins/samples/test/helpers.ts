// The samples plugin as oz0 runs it: installed from this folder into an in-memory runtime, its
// functions called by hand through the dispatch path jobs use (argument checks included).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Runtime } from "@oz0/runtime";

export const SAMPLES_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface Samples {
  readonly runtime: Runtime;
  /** Calls `<tool>.<function>` of samples (or a reference) and returns its result; throws its error. */
  call(name: string, args: Record<string, unknown>, tenant?: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function openSamples(tenants: readonly string[] = ["default"]): Promise<Samples> {
  const home = await mkdtemp(join(tmpdir(), "oz0-samples-"));
  const runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  for (const tenant of tenants) await runtime.catalog.install(tenant, SAMPLES_DIR);
  return {
    runtime,
    async call(name, args, tenant = "default") {
      const address = name.includes(":") ? name : `samples/${name}`;
      const report = await runtime.tools.call(tenant, address, args);
      if (report.ok) return report.result;
      throw Object.assign(new Error(report.error?.message), { code: report.error?.code });
    },
    async close() {
      await runtime.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The error a call throws, with its code; fails the test when it does not throw. */
export async function callError(
  samples: Samples,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code?: string; message: string }> {
  try {
    await samples.call(name, args);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error(`${name} did not fail`);
}
