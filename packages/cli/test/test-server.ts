// The server the CLI's second pass goes through (run-cli.ts, OZ0_TEST_CLI_THROUGH=server): a
// real server, with its worker, over the home of argv[2] (and OZ0_DATABASE_URL), in a process
// of its own as `oz0 serve` is, since one process keeps one connection to a SQLite file. Its
// identity takes the key `<argv[3]><tenant>` as the embedded CLI's caller, the local admin of
// that tenant, so the answers of both can be compared byte for byte; every other key is
// checked as ever. It prints its URL on one line once it listens, and closes on SIGTERM.
import { localAdmin, Runtime } from "@oz0/runtime";
import { startServer } from "@oz0/server";

const [, , home, testKey] = process.argv;
if (home === undefined || testKey === undefined) {
  process.stderr.write("usage: test-server.ts <home> <test key prefix>\n");
  process.exit(2);
}
const runtime = await Runtime.open({ home, databaseUrl: process.env.OZ0_DATABASE_URL || undefined }).catch(
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
const { identity } = runtime;
const authenticate = identity.authenticateKey.bind(identity);
identity.authenticateKey = async (key, options) =>
  key.startsWith(testKey) ? localAdmin(key.slice(testKey.length)) : authenticate(key, options);
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
