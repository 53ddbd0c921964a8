// The server the CLI's second pass goes through (run-cli.ts, OZ0_TEST_CLI_THROUGH=server): a
// real server, with its worker, over the home of argv[2] (and OZ0_DATABASE_URL), in a process
// of its own as `oz0 serve` is, since one process keeps one connection to a SQLite file. Its
// identity takes the key `oz0-cli-test-local-admin-of:<tenant>` as the embedded CLI's caller,
// the local admin of that tenant, so the answers of both can be compared byte for byte; every
// other key is checked as ever. It prints its URL on one line once it listens, and closes on
// SIGTERM.
import { pathToFileURL } from "node:url";
import { localAdmin, Runtime } from "@oz0/runtime";
import { startServer } from "@oz0/server";

export const TEST_KEY = "oz0-cli-test-local-admin-of:";

const home = process.argv[2];
// Run as a program, not imported for TEST_KEY.
if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(process.argv[1]).href &&
  home !== undefined
) {
  const runtime = await Runtime.open({ home, databaseUrl: process.env.OZ0_DATABASE_URL || undefined });
  const { identity } = runtime;
  const authenticate = identity.authenticateKey.bind(identity);
  identity.authenticateKey = async (key, options) =>
    key.startsWith(TEST_KEY) ? localAdmin(key.slice(TEST_KEY.length)) : authenticate(key, options);
  const server = await startServer({
    runtime,
    host: "127.0.0.1",
    port: 0,
    worker: { pollMs: 50 },
    eventPollMs: 20,
  });
  process.stdout.write(`${server.url}\n`);
  process.once("SIGTERM", () => {
    void server
      .close()
      .then(() => runtime.close())
      .then(() => process.exit(0));
  });
}
