// What the job engine's tests share: an engine over fixture plugin folders and a store, and
// models made from turns written in the test.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JobEngine, type JobEngineOptions, type JobEvent, type JobView } from "../../src/jobs/index.js";
import { type LanguageModel, type ModelResolver, type TestTurn, testModel } from "../../src/models/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { DirSource, fixture } from "./dir-source.js";

export const TENANT = "default";

export interface Harness {
  readonly store: Store;
  readonly source: DirSource;
  readonly home: string;
  engine(options?: Partial<JobEngineOptions>): JobEngine;
  /** Starts a job of `agent` (an address) and runs it here until it stops. */
  run(
    agent: string,
    input: unknown,
    options?: Partial<JobEngineOptions>,
  ): Promise<{ job: JobView; events: JobEvent[] }>;
  close(): Promise<void>;
}

/** A harness over an in-memory store with the helpdesk fixture (and any other fixtures named). */
export async function harness(plugins: readonly string[] = ["helpdesk"], store?: Store): Promise<Harness> {
  const opened = store ?? (await openStore({ memory: true }));
  const source = await DirSource.load(plugins.map(fixture));
  const home = await mkdtemp(join(tmpdir(), "oz0-jobs-"));
  const engine = (options: Partial<JobEngineOptions> = {}) =>
    new JobEngine({ store: opened, source, home, ...options });
  return {
    store: opened,
    source,
    home,
    engine,
    async run(agent, input, options = {}) {
      const jobs = engine(options);
      const started = await jobs.start({ tenant: TENANT, agent, input });
      const job = await jobs.run(started.id, { tenant: TENANT });
      return { job, events: await jobs.events(job.id, { tenant: TENANT }) };
    },
    close: () => opened.close(),
  };
}

/** A resolver that gives every agent the scripted test model playing `turns`. */
export function scripted(turns: readonly TestTurn[], file = "inline.yaml"): ModelResolver {
  return async () => testModel({ script: { file, turns } });
}

/** A resolver that gives every agent `model`. */
export function using(model: LanguageModel): ModelResolver {
  return async () => model;
}

export function kinds(events: readonly JobEvent[]): string[] {
  return events.map((entry) => entry.kind);
}

/** The events of one kind, with their data typed. */
export function ofKind<K extends JobEvent["kind"]>(
  events: readonly JobEvent[],
  kind: K,
): Extract<JobEvent, { kind: K }>[] {
  return events.filter((entry): entry is Extract<JobEvent, { kind: K }> => entry.kind === kind);
}
