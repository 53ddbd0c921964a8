// A separate oz0 worker process for the crash and lease tests (workers.ts starts it). It runs
// one job (`run`), takes it up as `oz0 job resume` does (`resume`: waiting while another
// worker holds it, printing a JSON line for each wait), or takes up whatever job is runnable
// (`work`) once a dead worker's lease has run out, and prints one JSON line with the job. Its
// model writes each step it is asked for to a file, and can hang at a step so that the test
// kills the process in the middle of a model call.
import { appendFileSync } from "node:fs";
import { JobEngine, type JobView } from "../../src/jobs/index.js";
import { type LanguageModel, modelResolver } from "../../src/models/index.js";
import { openStore, type StoreOptions } from "../../src/store/index.js";
import { DirSource, fixture } from "./dir-source.js";

export interface WorkerTask {
  readonly mode: "run" | "resume" | "work";
  readonly options: StoreOptions;
  readonly home: string;
  /** The fixture plugins under test/fixtures/jobs that make up the tenant. */
  readonly plugins: readonly string[];
  /** The job to run (`run`), or to wait for while taking up runnable jobs (`work`). */
  readonly job: string;
  readonly leaseMs: number;
  /** Each model step asked for is appended here. */
  readonly modelLog: string;
  /** Hang inside this model step (the process is then killed). */
  readonly hangAtModelStep?: number;
}

function logging(model: LanguageModel, task: WorkerTask): LanguageModel {
  return {
    id: model.id,
    async generate(request) {
      appendFileSync(task.modelLog, `${request.step}\n`);
      if (request.step === task.hangAtModelStep) await new Promise(() => {});
      return model.generate(request);
    },
    ...(model.finish === undefined ? {} : { finish: (steps: number) => model.finish!(steps) }),
  };
}

async function main(task: WorkerTask): Promise<JobView> {
  const store = await openStore(task.options);
  const resolve = modelResolver();
  const engine = new JobEngine({
    store,
    source: await DirSource.load(task.plugins.map((name) => fixture(name))),
    home: task.home,
    leaseMs: task.leaseMs,
    pollMs: 50,
    models: async (choice, context) => logging(await resolve(choice, context), task),
  });
  try {
    if (task.mode === "run") return await engine.run(task.job, { tenant: "default" });
    if (task.mode === "resume") {
      return await engine.resume(task.job, {
        tenant: "default",
        onLeaseWait: (wait) => process.stdout.write(`${JSON.stringify({ wait })}\n`),
      });
    }
    for (;;) {
      const done = await engine.work();
      if (done?.id === task.job) return done;
      if (done === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await store.close();
  }
}

const task = JSON.parse(process.argv[2] ?? "{}") as WorkerTask;
main(task).then(
  (job) => process.stdout.write(`${JSON.stringify(job)}\n`),
  (error: unknown) => {
    process.stdout.write(
      `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
    );
    process.exitCode = 1;
  },
);
