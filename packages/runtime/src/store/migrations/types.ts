// What a migration is: a numbered, named change to the schema that runs once per database.
import type { Kysely, RawBuilder } from "kysely";
import type { StoreEngine } from "../store.js";

/**
 * A migration sees the database untyped: the `Database` type describes the latest schema,
 * and an old migration must keep compiling after later ones change it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema of their own time.
export type MigrationDb = Kysely<any>;

export interface MigrationContext {
  readonly engine: StoreEngine;
  /** The database's clock in epoch milliseconds, as an SQL expression. */
  readonly clockSql: RawBuilder<number>;
}

export interface Migration {
  /**
   * 1, 2, 3, …: the list in code runs in increasing order and may skip a number; a database
   * gets every version it lacks, in order, even one below a version it has.
   */
  readonly version: number;
  readonly name: string;
  /** Runs inside the migration transaction; never edit one that has shipped, add another. */
  up(db: MigrationDb, context: MigrationContext): Promise<void>;
}
