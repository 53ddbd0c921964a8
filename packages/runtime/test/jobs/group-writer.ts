// A process that writes events for several jobs at once on PostgreSQL, so that its writes go in
// groups (jobs/write-group.ts), and prints a JSON line for each write once it was acknowledged:
// the write-group test kills it with SIGKILL in the middle and checks that the database holds
// every write it acknowledged.
import { event } from "../../src/events/index.js";
import { JobStore, type Lease } from "../../src/jobs/index.js";
import { NO_SECRETS } from "../../src/models/index.js";
import { openStore, type StoreOptions } from "../../src/store/index.js";

interface WriterTask {
  readonly options: StoreOptions;
  readonly leases: readonly { readonly job: string; readonly token: string; readonly nextSeq: number }[];
}

const task = JSON.parse(process.argv[2] ?? "{}") as WriterTask;
const store = await openStore(task.options);
const jobs = new JobStore(store);
await Promise.all(
  task.leases.map(async (given) => {
    const lease: Lease = { ...given, ttlMs: 600_000, redactor: NO_SECRETS, notesPending: 0 };
    // Until the test kills the process.
    for (let write = 0; ; write++) {
      const first = lease.nextSeq;
      const count = 1 + (write % 3);
      await jobs.write(
        lease,
        Array.from({ length: count }, (_, index) =>
          event("mcp_log", { callId: `w${write}`, tool: "writer", level: "info", data: index }),
        ),
      );
      process.stdout.write(`${JSON.stringify({ job: lease.job, first, count })}\n`);
    }
  }),
);
