// What the hook bus's tests share: plugins made in the test (a recording host and a setup
// function, as a code entry would run), a bus over them that keeps the events it records, and
// jobs of the job engine's fixture plugins run with those plugins' hooks.
import type { Host } from "@oz0/sdk";
import { createRecordingHost } from "@oz0/sdk/internal";
import {
  buildHookTable,
  type GovernanceEvent,
  HookBus,
  type HookTable,
  type PluginWithCode,
  pluginHookSource,
} from "../../src/hooks/index.js";
import type { JobEngineOptions, JobEvent, JobView } from "../../src/jobs/index.js";
import { type Harness, harness } from "../jobs/helpers.js";

/** A plugin whose code entry runs `setup`; `config` is its config in the tenant. */
export function hookPlugin(
  name: string,
  setup: (host: Host) => void,
  config: Record<string, unknown> = {},
): { plugin: PluginWithCode; config: Record<string, unknown> } {
  const code = createRecordingHost(name);
  setup(code);
  return { plugin: { manifest: { name }, code }, config };
}

export type TestPlugin = ReturnType<typeof hookPlugin>;

/** A bus over the plugins' hook table, for one job, and the events it recorded. */
export async function busOver(
  plugins: readonly TestPlugin[],
): Promise<{ bus: HookBus; table: HookTable; events: GovernanceEvent[] }> {
  const table = await buildHookTable(
    plugins.map(({ plugin, config }) => ({ name: plugin.manifest.name, code: plugin.code, config })),
  );
  const events: GovernanceEvent[] = [];
  const bus = new HookBus(table, { tenant: "default", jobId: "job-1", agent: "helpdesk/triage" }, (entry) =>
    events.push(entry),
  );
  return { bus, table, events };
}

export interface HookedHarness extends Harness {
  /** Runs `agent` with the plugins' hooks until the job stops. */
  runWith(
    plugins: readonly TestPlugin[],
    agent: string,
    input: unknown,
    options?: Partial<JobEngineOptions>,
  ): Promise<{ job: JobView; events: JobEvent[] }>;
}

export async function hookedHarness(): Promise<HookedHarness> {
  const h = await harness();
  return {
    ...h,
    runWith: (plugins, agent, input, options = {}) =>
      h.run(agent, input, { hooks: pluginHookSource(plugins), ...options }),
  };
}

/** The events of the governance kinds, as `{ kind, data }`. */
export function governance(events: readonly JobEvent[]): { kind: string; data: unknown }[] {
  return events
    .filter((entry) => ["governance_checked", "governance_denied", "hook_error"].includes(entry.kind))
    .map((entry) => ({ kind: entry.kind, data: entry.data }));
}
