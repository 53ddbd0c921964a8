// What a bundle declares (its manifest, agents and skills, read and checked), kept in the store
// once a process has read it: a bundle never changes, and reading it again cost every process
// that loads the plugin the first YAML and zod parse of its life, cold code, about 30 ms of a
// short `oz0 run`. The store is where the bundle's digest is kept too, so what is kept is as
// trusted as the files it came from; the home holds no copy a process would believe.
//
// What is kept is named by its reader as well, the build of oz0 that read it: another build's
// checks may differ, so it reads the bundle afresh, and keeps its own reading in place of the
// other's. oz0 run from its modules (tests, an embedder of the runtime package) has no build and
// reads every time.
import type { PluginDeclarations } from "../plugin-dir/index.js";
import type { Store } from "../store/index.js";

declare global {
  interface ImportMeta {
    /** The build of oz0 this module is bundled in: `scripts/bundle-cli.mjs` writes it in. */
    readonly oz0Build?: string;
  }
}

/** The build this process's oz0 is; `undefined` when it runs from its modules. */
export const OZ0_BUILD: string | undefined = import.meta.oz0Build;

/**
 * The declarations of bundle `digest` as `reader` kept them, or, when it kept none, `read()`'s,
 * kept for the next process. Both come back as the JSON kept, so a process that read the bundle
 * and one that did not hold the same values.
 */
export async function keptDeclarations(
  store: Store,
  digest: string,
  read: () => Promise<PluginDeclarations>,
  reader: string | undefined = OZ0_BUILD,
): Promise<PluginDeclarations> {
  if (reader === undefined) return read();
  const kept = await store.db
    .selectFrom("bundle_declarations")
    .select("declarations")
    .where("digest", "=", digest)
    .where("reader", "=", reader)
    .executeTakeFirst();
  if (kept !== undefined) return JSON.parse(kept.declarations) as PluginDeclarations;
  const declarations = JSON.stringify(await read());
  await store.db
    .deleteFrom("bundle_declarations")
    .where("digest", "=", digest)
    .where("reader", "!=", reader)
    .execute();
  await store.db
    .insertInto("bundle_declarations")
    .values({ digest, reader, declarations, created_at: store.clockSql })
    .onConflict((conflict) => conflict.columns(["digest", "reader"]).doNothing())
    .execute();
  return JSON.parse(declarations) as PluginDeclarations;
}
