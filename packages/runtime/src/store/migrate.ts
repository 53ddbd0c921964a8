// Brings a database up to the schema this oz0 knows, at every start. A start that finds every
// migration of this oz0 recorded, and no other, is done. Otherwise, and safe when several
// processes start at once, all of it runs in one transaction that first takes a lock (the write
// lock on SQLite, an advisory lock on PostgreSQL), so the first process migrates and the others
// then find nothing left to do.
import { Oz0Error } from "@oz0/sdk";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { MIGRATIONS, type Migration } from "./migrations/index.js";
import type { Database } from "./schema.js";
import type { StoreEngine } from "./store.js";

export interface MigrationReport {
  /** The schema version the database is at now. */
  readonly version: number;
  /** The versions this call applied; empty when the database was already up to date. */
  readonly applied: readonly number[];
}

/** Any fixed number serves, as long as nothing else in the database uses it as a lock key. */
const POSTGRES_MIGRATION_LOCK = 0x6f7a30;

export async function migrate(
  db: Kysely<Database>,
  engine: StoreEngine,
  clockSql: RawBuilder<number>,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  checkMigrationList(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const known = new Set(migrations.map((migration) => migration.version));
  // Nearly every start finds the database as this oz0 left it: one read says so, and the start
  // takes no lock (on PostgreSQL, one round trip where the locked check is five).
  if (upToDate(await recordedVersions(db), known)) return { version: latest, applied: [] };
  // On SQLite the store's transactions begin immediate, which is the lock.
  return db.transaction().execute(async (trx) => {
    if (engine === "postgres") {
      await sql`select pg_advisory_xact_lock(${sql.lit(POSTGRES_MIGRATION_LOCK)})`.execute(trx);
    }
    await trx.schema
      .createTable("oz0_migrations")
      .ifNotExists()
      .addColumn("version", "integer", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("applied_at", "bigint", (column) => column.notNull())
      .execute();
    const rows = await trx.selectFrom("oz0_migrations").select("version").orderBy("version").execute();
    const recorded = new Set(rows.map((row) => row.version));
    const unknown = rows.map((row) => row.version).filter((version) => !known.has(version));
    if (unknown.length > 0) {
      const found = unknown.at(-1)!;
      throw new Oz0Error(
        "INTERNAL",
        found > latest
          ? `The database is at schema version ${found}, written by a newer oz0; this oz0 knows versions up to ${latest}. ` +
              "Upgrade oz0 to use this database."
          : `The database records schema version ${found}, which this oz0 does not have; it was written by another build of oz0. ` +
              "Use that build, or restore the database from a backup.",
        { data: { cause: `schema versions ${unknown.join(",")} unknown` } },
      );
    }
    const current = rows.at(-1)?.version ?? 0;
    const applied: number[] = [];
    for (const migration of migrations.filter((each) => !recorded.has(each.version))) {
      try {
        await migration.up(trx, { engine, clockSql });
      } catch (error) {
        throw new Oz0Error(
          "INTERNAL",
          `Migration ${migration.version} (${migration.name}) failed on ${engine}, so the database was left ` +
            `at version ${current}: ${error instanceof Error ? error.message : String(error)}`,
          { data: { cause: String(error) }, cause: error },
        );
      }
      await trx
        .insertInto("oz0_migrations")
        .values({ version: migration.version, name: migration.name, applied_at: clockSql })
        .execute();
      applied.push(migration.version);
    }
    return { version: latest, applied };
  });
}

/** The versions the database records, or `undefined` when it has no record yet (a new database). */
async function recordedVersions(db: Kysely<Database>): Promise<number[] | undefined> {
  try {
    const { rows } = await sql<{ version: number }>`select version from oz0_migrations`.execute(db);
    return rows.map((row) => Number(row.version));
  } catch {
    return undefined;
  }
}

/** Whether `recorded` is every known version and nothing else: no migration to run, none to refuse. */
function upToDate(recorded: readonly number[] | undefined, known: ReadonlySet<number>): boolean {
  return (
    recorded !== undefined &&
    recorded.length === known.size &&
    recorded.every((version) => known.has(version))
  );
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const before = index === 0 ? 0 : migrations[index - 1]!.version;
    if (!Number.isSafeInteger(migration.version) || migration.version <= before) {
      throw new Oz0Error(
        "INTERNAL",
        `Migration "${migration.name}" is at position ${index + 1} of the list with version ${migration.version}, ` +
          `not above the version before it (${before}); versions must increase along the list.`,
        { data: { cause: "migration list out of order" } },
      );
    }
  });
}
