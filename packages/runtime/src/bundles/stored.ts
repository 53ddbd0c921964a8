// Bundles in the store: the `bundles` table (migration 10) keeps each bundle once, as its
// archive, whatever number of tenants and plugins run from it.
import type { Kysely, RawBuilder } from "kysely";
import type { Database } from "../store/index.js";
import { packBundle, unpackBundle } from "./archive.js";
import { bundleError, type PluginBundle } from "./digest.js";

/** A bundle packed and ready to store; packing runs outside the transaction that stores it. */
export interface PackedBundle {
  readonly bundle: PluginBundle;
  readonly archive: Buffer;
}

export async function packed(bundle: PluginBundle): Promise<PackedBundle> {
  return { bundle, archive: await packBundle(bundle) };
}

/** Stores `packed` unless a bundle of its digest is stored already. */
export async function saveBundle(
  db: Kysely<Database>,
  { bundle, archive }: PackedBundle,
  clockSql: RawBuilder<number>,
): Promise<void> {
  await db
    .insertInto("bundles")
    .values({
      digest: bundle.digest,
      archive,
      files: bundle.files.length,
      bytes: bundle.files.reduce((sum, file) => sum + file.bytes.byteLength, 0),
      created_at: clockSql,
    })
    .onConflict((conflict) => conflict.column("digest").doNothing())
    .execute();
}

/** The stored bundle `digest`, checked against its digest as it is unpacked. */
export async function readBundle(db: Kysely<Database>, digest: string): Promise<PluginBundle> {
  const row = await db
    .selectFrom("bundles")
    .select("archive")
    .where("digest", "=", digest)
    .executeTakeFirst();
  if (row === undefined) {
    throw bundleError(
      `bundle ${digest} is not in the store; update the plugin from its folder to store it again.`,
      {
        detail: "bundle missing",
        digest,
      },
    );
  }
  return unpackBundle(row.archive, { digest, name: `the stored bundle ${digest}` });
}
