// A bundle as one archive, to send or keep: a gzipped tar of its files in path order, with
// fixed modes, owners and times, so the same bundle always packs to the same bytes. Unpacking
// trusts nothing in the archive: paths, sizes and the count are checked as they come, only
// plain files (and folders, which are skipped) are accepted, and the digest is computed afresh.
// tar-stream loads with the first archive packed or unpacked, not with the runtime.
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  BUNDLE_LIMITS,
  type BundleFile,
  type BundleLimits,
  bundleError,
  fileTooLarge,
  makeBundle,
  type PluginBundle,
  pathProblem,
  tooManyFiles,
  totalTooLarge,
} from "./digest.js";

const EPOCH = new Date(0);

/**
 * `bundle` as a gzipped tar (`.tgz`), which `unpackBundle` (and `tar xzf`) reads back.
 * @example await writeFile("std.tgz", await packBundle(await bundleFolder("plugins/std")));
 */
export async function packBundle(bundle: PluginBundle): Promise<Buffer> {
  const { default: tar } = await import("tar-stream");
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    pack.on("end", resolve);
    pack.on("error", reject);
  });
  for (const file of bundle.files) {
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        {
          name: file.path,
          size: file.bytes.byteLength,
          mode: 0o644,
          mtime: EPOCH,
          uid: 0,
          gid: 0,
          type: "file",
        },
        Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

export interface UnpackOptions {
  /** The digest the archive must hold; refused when its files make another. */
  readonly digest?: string | undefined;
  readonly limits?: BundleLimits | undefined;
  /** What to call the archive in messages (a file name, "the upload"); `the archive` when left out. */
  readonly name?: string | undefined;
}

/**
 * The bundle in the gzipped tar `archive`, checked: each entry a file or folder with a path
 * inside the plugin, within the size and count limits (gunzip stops at the total limit), and,
 * with `options.digest`, holding exactly those files.
 */
export async function unpackBundle(archive: Uint8Array, options: UnpackOptions = {}): Promise<PluginBundle> {
  const limits = options.limits ?? BUNDLE_LIMITS;
  const where = options.name ?? "the archive";
  let tarBytes: Buffer;
  try {
    // Headers and padding take room past the files' own bytes; the files' total is checked below.
    tarBytes = gunzipSync(archive, { maxOutputLength: limits.maxTotalBytes + (limits.maxFiles + 2) * 1536 });
  } catch (cause) {
    const tooLarge = (cause as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
    throw bundleError(
      tooLarge
        ? `${where} unpacks to more than the bundle's limit of ${limits.maxTotalBytes} bytes in all (maxTotalBytes).`
        : `${where} is not a gzipped tar (.tgz): ${(cause as Error).message}. Make one with oz0 plugin pack <dir>.`,
      tooLarge
        ? { detail: "bundle too large", limit: "maxTotalBytes", max: limits.maxTotalBytes }
        : { detail: "not a gzipped tar" },
    );
  }
  const files: BundleFile[] = [];
  let total = 0;
  const { default: tar } = await import("tar-stream");
  const extract = tar.extract();
  Readable.from([tarBytes]).pipe(extract);
  try {
    for await (const entry of extract) {
      const { header } = entry;
      // `tar czf x.tgz -C dir .` names every entry ./…; a folder's entry ends in /.
      const path = header.name.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
      if (header.type === "directory") {
        entry.resume();
        if (path === "" || path === ".") continue;
      }
      const problem = path === "" ? "is empty" : pathProblem(path, limits);
      if (problem !== undefined) {
        throw bundleError(
          `${where}: the entry '${header.name}' ${problem}; a bundle holds only paths inside the plugin folder.`,
          {
            detail: "path not allowed",
            path: header.name,
          },
        );
      }
      if (header.type === "directory") continue;
      if (header.type !== "file" && header.type !== "contiguous-file") {
        throw bundleError(
          `${where}: the entry ${path} is a ${header.type ?? "special entry"}, not a file; a bundle holds only files (links are not kept).`,
          { detail: "not a file", path },
        );
      }
      const size = header.size ?? 0;
      if (size > limits.maxFileBytes) throw fileTooLarge(where, path, size, limits);
      total += size;
      if (total > limits.maxTotalBytes) throw totalTooLarge(where, path, limits);
      if (files.length >= limits.maxFiles) throw tooManyFiles(where, limits);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.push({ path, bytes: Buffer.concat(chunks) });
    }
  } catch (cause) {
    extract.destroy();
    if ((cause as { code?: unknown }).code === "INVALID_BUNDLE") throw cause;
    throw bundleError(`${where} is not a readable tar: ${(cause as Error).message}.`, {
      detail: "not a tar",
    });
  }
  const bundle = makeBundle(files, where, limits);
  if (options.digest !== undefined && bundle.digest !== options.digest) {
    throw bundleError(
      `${where} holds files whose digest is ${bundle.digest}, not ${options.digest} as it should; it was changed or damaged.`,
      { detail: "digest mismatch", digest: options.digest },
    );
  }
  return bundle;
}
