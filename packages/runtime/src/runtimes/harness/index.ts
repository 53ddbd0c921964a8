// The harness runtimes: `runtime: harness:<name>` runs the agent on the harness a plugin
// registered with `host.addHarness`, over ACP or JSON lines (docs/runtimes.md#harnesses). The
// protocol code loads on a harness job's first run, so lint and the catalog, which read the
// runtime registry, never load it.
import type { AgentRuntime, RuntimeSession } from "../types.js";

/** What a run holds outside the process, for a cancel to reach. */
interface ActiveRun {
  cancel(): void;
}

const active = new Map<string, ActiveRun>();

/** The runtime `harness:<name>` selects: one per name, so its steps record `harness:<name>`. */
export function harnessRuntime(value: string): AgentRuntime {
  return {
    name: value,
    selects: [value],
    async run(session: RuntimeSession) {
      const setting = session.harness;
      if (setting === undefined) {
        throw new Error(
          `agent runtime '${value}' was given no harness: the core resolves it for a harness agent`,
        );
      }
      const onStart = (run: ActiveRun) => active.set(session.job, run);
      try {
        if (setting.spec.protocol === "acp") {
          const { runAcp } = await import("./acp.js");
          await runAcp(session, setting, onStart);
        } else {
          const { runJsonl } = await import("./jsonl.js");
          await runJsonl(session, setting, onStart);
        }
      } finally {
        active.delete(session.job);
      }
    },
    cancel(session) {
      active.get(session.job)?.cancel();
    },
  };
}
