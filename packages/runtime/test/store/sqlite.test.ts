import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { threadId, Worker } from "node:worker_threads";
import { isOz0Error } from "@oz0/sdk";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_HANDOVER_MS, LoopHeartbeats, ThreadHeartbeats } from "../../src/store/heartbeat.js";
import { DEFAULT_TENANT, openStore, SQLITE_BUSY_TIMEOUT_MS, type Store } from "../../src/store/index.js";
import {
  CHECKPOINT_EVERY_COMMITS,
  SQLITE_BACKSTOP_CHECKPOINT_PAGES,
  WalCheckpoints,
} from "../../src/store/sqlite.js";
import { walCheckpointsOf } from "../../src/store/store.js";
import { runTogether } from "./children.js";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "oz0-sqlite-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function pragma(store: Store, name: string): Promise<unknown> {
  const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(store.db);
  return Object.values(rows[0] ?? {})[0];
}

/** Waits until `done` holds, failing after 15 s. */
async function until(done: () => boolean): Promise<void> {
  const patience = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > patience) throw new Error("waited 15 s in vain");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Commits `count` settings, each on its own, from `from` on. */
async function commitSettings(store: Store, from: number, count: number, value = "x"): Promise<void> {
  for (let index = from; index < from + count; index++) {
    await store.db
      .insertInto("settings")
      .values({ tenant: DEFAULT_TENANT, key: `commit.${index}`, value, updated_at: 0 })
      .execute();
  }
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

describe("the SQLite store", () => {
  it("keeps its database in oz0.db under the home folder, creating the folder", async () => {
    const home = join(scratch, "new", "home");
    const store = await openStore({ home });
    try {
      expect(store.location).toBe(join(home, "oz0.db"));
      expect(existsSync(join(home, "oz0.db"))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("keeps the home and the database files readable by their owner only", async () => {
    const home = join(scratch, "private", "home");
    const store = await openStore({ home });
    try {
      await store.db.insertInto("tenants").values({ name: "modes", created_at: 1 }).execute();
      expect(modeOf(home)).toBe(0o700);
      for (const file of ["oz0.db", "oz0.db-wal", "oz0.db-shm"])
        expect([file, modeOf(join(home, file))]).toEqual([file, 0o600]);
      expect(store.warnings).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("makes an existing home and database that others can read owner-only when it opens them", async () => {
    const home = join(scratch, "loose");
    await mkdir(home, { mode: 0o755 });
    await chmod(home, 0o755);
    const first = await openStore({ home });
    await first.db.insertInto("tenants").values({ name: "loose", created_at: 1 }).execute();
    await first.close();
    await chmod(home, 0o755);
    for (const file of ["oz0.db", "oz0.db-wal", "oz0.db-shm"]) {
      if (existsSync(join(home, file))) await chmod(join(home, file), 0o644);
    }
    await writeFile(join(home, "oz0.db-wal"), "", { flag: "a", mode: 0o644 });
    await chmod(join(home, "oz0.db-wal"), 0o644);
    const store = await openStore({ home });
    try {
      expect(modeOf(home)).toBe(0o700);
      expect(modeOf(join(home, "oz0.db"))).toBe(0o600);
      expect(modeOf(join(home, "oz0.db-wal"))).toBe(0o600);
      expect(
        await store.db.selectFrom("tenants").select("name").where("name", "=", "loose").execute(),
      ).toEqual([{ name: "loose" }]);
    } finally {
      await store.close();
    }
  });

  it("opens the file in WAL mode with a busy timeout and foreign keys on", async () => {
    const store = await openStore({ home: join(scratch, "pragmas") });
    try {
      expect(await pragma(store, "journal_mode")).toBe("wal");
      expect(await pragma(store, "busy_timeout")).toBe(SQLITE_BUSY_TIMEOUT_MS);
      expect(await pragma(store, "foreign_keys")).toBe(1);
      expect(await pragma(store, "synchronous")).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("keeps the statements it uses prepared while more than its cache holds pass through once, the least recently used going first", async () => {
    const store = await openStore({ memory: true });
    const prepared: string[] = [];
    const original = DatabaseSync.prototype.prepare;
    const prepare = vi.spyOn(DatabaseSync.prototype, "prepare").mockImplementation(function (
      this: DatabaseSync,
      text: string,
    ) {
      prepared.push(text);
      return original.call(this, text);
    });
    try {
      const hot = CompiledQuery.raw("select 1 as hot", []);
      const once = (index: number) => CompiledQuery.raw(`select ${index} as once`, []);
      await store.run(hot);
      for (let index = 0; index < 600; index += 1) {
        await store.run(once(index));
        await store.run(hot);
      }
      expect(prepared.filter((text) => text === hot.sql)).toHaveLength(1);
      // One that went out of the cache is prepared again when it comes back.
      await store.run(once(0));
      expect(prepared.filter((text) => text === once(0).sql)).toHaveLength(2);
    } finally {
      prepare.mockRestore();
      await store.close();
    }
  });

  it("lets two processes write at once, reading and appending in transactions, with no SQLITE_BUSY", async () => {
    const options = { home: join(scratch, "writers") };
    const store = await openStore(options);
    await store.db
      .insertInto("jobs")
      .values({
        id: "shared",
        tenant: DEFAULT_TENANT,
        name: "triage",
        plugin: "support-triage",
        kind: "agent",
        queue: "pool.support-triage",
        status: "running",
        input: "null",
        created_at: store.clockSql,
        updated_at: store.clockSql,
      })
      .execute();
    await store.close();

    const count = 150;
    const results = await runTogether([
      { mode: "append", options, jobId: "shared", writer: "a", count },
      { mode: "append", options, jobId: "shared", writer: "b", count },
    ]);
    expect(results).toEqual([
      { ok: true, applied: [], appended: count },
      { ok: true, applied: [], appended: count },
    ]);

    const after = await openStore(options);
    try {
      const events = await after.db
        .selectFrom("job_events")
        .select(["seq", "data"])
        .where("job_id", "=", "shared")
        .orderBy("seq")
        .execute();
      // Every read-then-append saw the other process's last write: no seq lost or doubled.
      expect(events.map((event) => event.seq)).toEqual(
        Array.from({ length: 2 * count }, (_, index) => index + 1),
      );
      const writers = new Set(events.map((event) => (JSON.parse(event.data) as { writer: string }).writer));
      expect(writers).toEqual(new Set(["a", "b"]));
      const settings = await after.db
        .selectFrom("settings")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      expect(settings.count).toBe(2 * count);
    } finally {
      await after.close();
    }
  });

  it("runs a heartbeat from a thread of its own while this thread is busy, and stops it when it returns no row", async () => {
    const home = join(scratch, "heartbeat");
    const store = await openStore({ home });
    const reader = new DatabaseSync(join(home, "oz0.db"));
    try {
      await store.db
        .insertInto("settings")
        .values({ tenant: DEFAULT_TENANT, key: "beats", value: "0", updated_at: 0 })
        .execute();
      const heard: (Readonly<Record<string, unknown>> | undefined)[] = [];
      const beating = store.heartbeat(
        {
          sql: "update settings set value = cast(value as integer) + 1 where key = ? and cast(value as integer) < ? returning value",
          parameters: ["beats", 3],
          everyMs: 20,
        },
        (row) => heard.push(row),
      );
      // This thread does not yield until the heartbeat has run twice: nothing of its own runs.
      const patience = Date.now() + 30_000;
      const beats = () =>
        Number(
          (reader.prepare("select value from settings where key = 'beats'").get() as { value: string }).value,
        );
      while (beats() < 2) {
        if (Date.now() > patience) throw new Error("the heartbeat did not run while this thread was busy");
      }
      expect(heard).toEqual([]);
      // Once free, this thread hears each run, until the statement returns no row.
      while (!heard.includes(undefined)) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard.map((row) => (row === undefined ? undefined : Number(row.value)))).toEqual([
        1,
        2,
        3,
        undefined,
      ]);
      beating.stop();
      expect(beats()).toBe(3);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it("gives a heartbeat new parameters with one message to its thread, its timer going on", async () => {
    const home = join(scratch, "heartbeat-update");
    const store = await openStore({ home });
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    try {
      const heard: unknown[] = [];
      const beating = store.heartbeat({ sql: "select ? as beat", parameters: ["a"], everyMs: 20 }, (row) =>
        heard.push(row),
      );
      await until(() => heard.length > 0);
      beating.update(["b"]);
      await until(() => heard.some((row) => (row as { beat: string }).beat === "b"));
      beating.stop();
      expect(posted.mock.calls.map(([message]) => (message as { op: string }).op)).toEqual([
        "start",
        "update",
        "stop",
      ]);
    } finally {
      posted.mockRestore();
      await store.close();
    }
  });

  it("sends its thread no message for a heartbeat stopped within a moment of its start, and hands over one that lives on", async () => {
    const home = join(scratch, "heartbeat-handover");
    const store = await openStore({ home });
    const posted = vi.spyOn(Worker.prototype, "postMessage");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const short = store.heartbeat(
        { sql: "select ? as beat", parameters: ["a"], everyMs: 60_000 },
        () => {},
      );
      short.update(["b"]);
      short.stop();
      const long = store.heartbeat({ sql: "select ? as beat", parameters: ["c"], everyMs: 60_000 }, () => {});
      long.update(["d"]);
      vi.advanceTimersByTime(HEARTBEAT_HANDOVER_MS);
      long.stop();
      expect(posted.mock.calls.map(([message]) => message)).toEqual([
        expect.objectContaining({ op: "start", parameters: ["d"] }),
        expect.objectContaining({ op: "stop" }),
      ]);
    } finally {
      vi.useRealTimers();
      posted.mockRestore();
      await store.close();
    }
  });

  it("gives a heartbeat new parameters on this thread's timers too", async () => {
    const store = await openStore({ memory: true });
    const heartbeats = new LoopHeartbeats(store.db);
    try {
      const heard: unknown[] = [];
      const beating = heartbeats.start({ sql: "select ? as beat", parameters: ["a"], everyMs: 10 }, (row) =>
        heard.push(row),
      );
      await until(() => heard.length > 0);
      beating.update(["b"]);
      await until(() => heard.some((row) => (row as { beat: string }).beat === "b"));
      beating.stop();
    } finally {
      await heartbeats.close();
      await store.close();
    }
  });

  it("runs the heartbeats from this thread when their own thread cannot open the database", async () => {
    const store = await openStore({ memory: true });
    const heartbeats = new ThreadHeartbeats(
      {
        engine: "sqlite",
        target: join(scratch, "no-such-folder", "oz0.db"),
        pragmas: [],
        busyTimeoutMs: 0,
      },
      new LoopHeartbeats(store.db),
    );
    try {
      const heard: unknown[] = [];
      heartbeats.start({ sql: "select ? as beat", parameters: ["on"], everyMs: 20 }, (row) =>
        heard.push(row),
      );
      const patience = Date.now() + 15_000;
      while (heard.length === 0 && Date.now() < patience)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard[0]).toEqual({ beat: "on" });
    } finally {
      await heartbeats.close();
      await store.close();
    }
  });

  it("checkpoints the WAL from the heartbeat thread every so many commits, its own commits checkpointing only at the backstop", async () => {
    const home = join(scratch, "checkpoints");
    const store = await openStore({ home });
    try {
      expect(await pragma(store, "wal_autocheckpoint")).toBe(SQLITE_BACKSTOP_CHECKPOINT_PAGES);
      const checkpoints = () => walCheckpointsOf(store)!;
      const before = checkpoints().asked;
      // This thread never yields while it commits: the thread's count is read from shared memory.
      await commitSettings(store, 0, CHECKPOINT_EVERY_COMMITS);
      expect(checkpoints().asked).toBe(before + 1);
      await until(() => checkpoints().ran === before + 1);
      await commitSettings(store, CHECKPOINT_EVERY_COMMITS, CHECKPOINT_EVERY_COMMITS - 1);
      expect(checkpoints().asked).toBe(before + 1);
      // A transaction is one commit, however many statements it holds.
      await store.transaction(async (trx) => {
        for (const key of ["a", "b"])
          await trx
            .insertInto("settings")
            .values({ tenant: DEFAULT_TENANT, key, value: "1", updated_at: 0 })
            .execute();
      });
      expect(checkpoints().asked).toBe(before + 2);
      await until(() => checkpoints().ran === before + 2);
      expect(checkpoints()).toMatchObject({ failed: 0, gone: false });
      expect(checkpoints().thread).not.toBe(threadId);
      // What the thread copied is in the database file: a checkpoint now finds nothing left to copy.
      const reader = new DatabaseSync(join(home, "oz0.db"));
      try {
        const left = reader.prepare("pragma wal_checkpoint(PASSIVE)").get() as {
          log: number;
          checkpointed: number;
        };
        expect(left.checkpointed).toBe(left.log);
      } finally {
        reader.close();
      }
    } finally {
      await store.close();
    }
  });

  it("asks the thread for no checkpoint while its last one has not run, and keeps the WAL within the backstop meanwhile", async () => {
    const home = join(scratch, "checkpoints-stuck");
    const store = await openStore({ home });
    const post = Worker.prototype.postMessage;
    // A thread that never runs what it is asked.
    const posted = vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (
      this: Worker,
      message,
    ) {
      if ((message as { op?: string }).op !== "checkpoint") post.call(this, message);
    });
    try {
      const pageBytes = Number(await pragma(store, "page_size"));
      // Each commit a few pages (its value overflows into pages of its own): the WAL would
      // grow to three times the backstop, were it not checkpointed.
      const value = "x".repeat(3 * pageBytes);
      const commits = Math.ceil((3 * SQLITE_BACKSTOP_CHECKPOINT_PAGES) / 4);
      await commitSettings(store, 0, commits, value);
      expect(walCheckpointsOf(store)).toMatchObject({ asked: 1, ran: 0 });
      const frameBytes = pageBytes + 24;
      const walBytes = statSync(join(home, "oz0.db-wal")).size;
      expect(walBytes).toBeLessThanOrEqual(32 + (SQLITE_BACKSTOP_CHECKPOINT_PAGES + 10) * frameBytes);
      const kept = await store.db
        .selectFrom("settings")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("key", "like", "commit.%")
        .executeTakeFirstOrThrow();
      expect(kept.n).toBe(commits);
    } finally {
      posted.mockRestore();
      await store.close();
    }
  });

  it("goes back to SQLite's own checkpoints when the other thread is gone or its checkpoint failed", () => {
    for (const [name, thread] of [
      ["gone", { checkpoint: () => false, checkpoints: { asked: 0, ran: 0, failed: 0, gone: false } }],
      ["failed", { checkpoint: () => true, checkpoints: { asked: 1, ran: 1, failed: 1, gone: false } }],
    ] as const) {
      const database = new DatabaseSync(join(scratch, `checkpoints-${name}.db`));
      try {
        database.exec("pragma journal_mode = WAL");
        const checkpoints = new WalCheckpoints(database, thread);
        const autocheckpoint = () =>
          (database.prepare("pragma wal_autocheckpoint").get() as { wal_autocheckpoint: number })
            .wal_autocheckpoint;
        expect(autocheckpoint()).toBe(SQLITE_BACKSTOP_CHECKPOINT_PAGES);
        for (let index = 0; index < CHECKPOINT_EVERY_COMMITS; index++) checkpoints.committed();
        expect(autocheckpoint()).toBe(1_000);
      } finally {
        database.close();
      }
    }
  });

  it("loses no acknowledged commit when its process is killed while the WAL is checkpointed from the other thread", async () => {
    const home = join(scratch, "checkpoints-crash");
    await (await openStore({ home })).close();
    const child = spawn(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        fileURLToPath(new URL("./fixtures/resolve-ts.ts", import.meta.url)),
        fileURLToPath(new URL("./fixtures/store-child.ts", import.meta.url)),
        JSON.stringify({ mode: "commit", options: { home } }),
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let output = "";
    let acknowledged = -1;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Only what was printed after its commit, whole lines, counts as acknowledged.
      const line = output.slice(0, output.lastIndexOf("\n")).split("\n").at(-1) ?? "";
      if (line.startsWith("committed ")) acknowledged = Number(line.slice("committed ".length));
    });
    try {
      await until(() => output.startsWith("ready\n"));
      child.stdin.write("go\n");
      // Past several checkpoints asked of the child's heartbeat thread.
      await until(() => acknowledged >= 5 * CHECKPOINT_EVERY_COMMITS);
      child.kill("SIGKILL");
      await once(child, "exit");
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    const after = await openStore({ home });
    try {
      const rows = await after.db
        .selectFrom("settings")
        .select("key")
        .where("key", "like", "commit.%")
        .execute();
      const kept = new Set(rows.map((row) => row.key));
      for (let index = 0; index <= acknowledged; index++) expect(kept.has(`commit.${index}`)).toBe(true);
    } finally {
      await after.close();
    }
  });

  it("refuses a Date as a query parameter instead of storing NULL", async () => {
    const store = await openStore({ memory: true });
    try {
      const insert = store.db
        .insertInto("tenants")
        .values({ name: "dated", created_at: new Date() as unknown as number })
        .execute();
      await expect(insert).rejects.toThrow(
        "Query parameter 2 is a Date, which the store does not take: pass epoch milliseconds for a time, " +
          "JSON.stringify(...) for a JSON column, and null for no value.",
      );
    } finally {
      await store.close();
    }
  });

  it("says which file it could not open and where to look", async () => {
    const blocker = join(scratch, "a-file");
    await writeFile(blocker, "not a folder");
    const opening = openStore({ home: join(blocker, "home") });
    await expect(opening).rejects.toSatisfy((error) => isOz0Error(error, "INTERNAL"));
    await expect(opening).rejects.toThrow(
      new RegExp(
        `^Cannot open the SQLite database at ${join(blocker, "home", "oz0.db")}: .+\\. ` +
          "Check that the oz0 home folder \\(--home or OZ0_HOME\\) exists and is writable\\.$",
      ),
    );
  });

  it("takes the write lock when a transaction begins, so another process waits instead of failing later", async () => {
    const home = join(scratch, "locks");
    const store = await openStore({ home });
    const other = new DatabaseSync(join(home, "oz0.db"), { timeout: 0 });
    try {
      const write = () => other.exec("insert into settings values ('default', 'other', '1', 1)");
      await store.transaction(async (trx) => {
        await trx.selectFrom("tenants").select("name").execute();
        expect(write).toThrow("database is locked");
      });
      await store.db
        .transaction()
        .setAccessMode("read only")
        .execute(async (trx) => {
          await trx.selectFrom("tenants").select("name").execute();
          expect(write).not.toThrow();
        });
    } finally {
      other.close();
      await store.close();
    }
  });

  it("commits a transaction run at once with every statement, each seeing the one before", async () => {
    const store = await openStore({ memory: true });
    try {
      const created = await store.transactionNow!((run) => {
        run(CompiledQuery.raw("insert into tenants (name, created_at) values (?, ?)", ["first", 1]));
        const { rows } = run<{ n: number }>(CompiledQuery.raw("select count(*) as n from tenants", []));
        run(
          CompiledQuery.raw("insert into tenants (name, created_at) values (?, ?)", [
            `after-${rows[0]!.n}`,
            1,
          ]),
        );
        return rows[0]!.n;
      });
      expect(created).toBe(2);
      const names = await store.db.selectFrom("tenants").select("name").orderBy("name").execute();
      expect(names.map((row) => row.name)).toEqual(["after-2", DEFAULT_TENANT, "first"]);
    } finally {
      await store.close();
    }
  });

  it("rolls back a transaction run at once when its work throws, keeping none of its statements", async () => {
    const store = await openStore({ memory: true });
    try {
      const failed = store.transactionNow!((run) => {
        run(CompiledQuery.raw("insert into tenants (name, created_at) values (?, ?)", ["undone", 1]));
        throw new Error("the work failed");
      });
      await expect(failed).rejects.toThrow("the work failed");
      const names = await store.db.selectFrom("tenants").select("name").execute();
      expect(names).toEqual([{ name: DEFAULT_TENANT }]);
      // The connection is free again: a transaction of Kysely's begins at once.
      await store.transaction(async (trx) => {
        await trx.insertInto("tenants").values({ name: "next", created_at: 1 }).execute();
      });
    } finally {
      await store.close();
    }
  });

  it("runs a transaction at once after the one Kysely holds open commits, never inside it", async () => {
    const store = await openStore({ memory: true });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let began!: () => void;
      const begun = new Promise<void>((resolve) => {
        began = resolve;
      });
      const order: string[] = [];
      const open = store.transaction(async (trx) => {
        await trx.insertInto("tenants").values({ name: "held", created_at: 1 }).execute();
        began();
        await held;
        order.push("held commits");
        throw new Error("the held transaction rolls back");
      });
      await begun;
      const atOnce = store.transactionNow!((run) => {
        order.push("at once runs");
        // The held transaction's row is gone by now: it rolled back before this began.
        return run<{ n: number }>(
          CompiledQuery.raw("select count(*) as n from tenants where name = ?", ["held"]),
        ).rows[0]!.n;
      });
      release();
      await expect(open).rejects.toThrow("rolls back");
      expect(await atOnce).toBe(0);
      expect(order).toEqual(["held commits", "at once runs"]);
    } finally {
      await store.close();
    }
  });

  it("rolls back to a savepoint inside a transaction", async () => {
    const store = await openStore({ memory: true });
    try {
      const trx = await store.db.startTransaction().execute();
      await trx.insertInto("tenants").values({ name: "kept", created_at: 1 }).execute();
      const inner = await trx.savepoint("before_second").execute();
      await inner.insertInto("tenants").values({ name: "undone", created_at: 1 }).execute();
      await inner.rollbackToSavepoint("before_second").execute();
      await inner.commit().execute();
      const names = await store.db.selectFrom("tenants").select("name").orderBy("name").execute();
      expect(names).toEqual([{ name: DEFAULT_TENANT }, { name: "kept" }]);
    } finally {
      await store.close();
    }
  });
});
