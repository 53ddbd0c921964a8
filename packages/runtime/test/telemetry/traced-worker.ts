// A separate oz0 worker process for the trace-continuity test: it exports spans to the
// collector the test runs, runs one job (`run`) or takes up whatever is runnable (`work`), and
// prints one JSON line with the job. Its model can hang at a step, after sending the spans that
// ended so far, so that the test kills the process in the middle of a model call.
import { appendFileSync } from "node:fs";
import { JobEngine, type JobView } from "../../src/jobs/index.js";
import { type LanguageModel, modelResolver } from "../../src/models/index.js";
import { openStore, type StoreOptions } from "../../src/store/index.js";
import { Telemetry } from "../../src/telemetry/index.js";
import { DirSource, fixture } from "../jobs/dir-source.js";

export interface TracedTask {
  readonly mode: "run" | "work";
  readonly options: StoreOptions;
  readonly home: string;
  readonly job: string;
  readonly leaseMs: number;
  /** The collector, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly endpoint: string;
  /** Each model step asked for is appended here, once the spans before it were sent. */
  readonly modelLog: string;
  readonly hangAtModelStep?: number;
}

async function main(task: TracedTask): Promise<JobView> {
  const store = await openStore(task.options);
  const telemetry = Telemetry.configured(
    { batchDelayMs: 10 },
    { OTEL_EXPORTER_OTLP_ENDPOINT: task.endpoint },
  )!;
  const resolve = modelResolver();
  const hanging = (model: LanguageModel): LanguageModel => ({
    ...model,
    async generate(request) {
      if (request.step === task.hangAtModelStep) {
        await telemetry.flush();
        appendFileSync(task.modelLog, `${request.step}\n`);
        await new Promise(() => {});
      }
      appendFileSync(task.modelLog, `${request.step}\n`);
      return model.generate(request);
    },
  });
  const engine = new JobEngine({
    store,
    source: await DirSource.load([fixture("helpdesk")]),
    home: task.home,
    leaseMs: task.leaseMs,
    pollMs: 50,
    telemetry,
    models: async (choice, context) => hanging(await resolve(choice, context)),
  });
  try {
    if (task.mode === "run") return await engine.run(task.job, { tenant: "default" });
    for (;;) {
      const done = await engine.work();
      if (done?.id === task.job) return done;
      if (done === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await telemetry.shutdown();
    await store.close();
  }
}

const task = JSON.parse(process.argv[2] ?? "{}") as TracedTask;
main(task).then(
  (job) => process.stdout.write(`${JSON.stringify(job)}\n`),
  (error: unknown) => {
    process.stdout.write(
      `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
    );
    process.exitCode = 1;
  },
);
