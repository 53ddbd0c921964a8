// Builds a bundle from a plugin folder: every file under it, read once, with what a plugin never
// needs at run time left out (EXCLUDED). A link is followed only while it stays inside the
// folder, and the bundle holds the file it leads to; one that leads out is refused.
import { constants } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { pluginRoot } from "../plugin-dir/index.js";
import { packBundle } from "./archive.js";
import {
  BUNDLE_LIMITS,
  type BundleFile,
  type BundleLimits,
  bundleError,
  fileTooLarge,
  makeBundle,
  type PluginBundle,
  tooManyFiles,
  totalTooLarge,
} from "./digest.js";

/**
 * What a bundle leaves out of a folder, by path inside it: version-control folders, and in any
 * `node_modules` its `.bin` links and `@oz0/sdk`, which the runtime provides (a bundle's code
 * always runs against the SDK of the oz0 that loads it).
 */
export const EXCLUDED: readonly RegExp[] = [/(^|\/)\.git$/, /(^|\/)node_modules\/(\.bin|@oz0\/sdk)$/];

function excluded(path: string): boolean {
  return EXCLUDED.some((pattern) => pattern.test(path));
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

// Windows has no O_NOFOLLOW; the inode check after opening still applies there.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The plugin folder `dir` as a bundle: its digest and files.
 * @example const { digest, files } = await bundleFolder("plugins/std");
 */
export async function bundleFolder(dir: string, limits: BundleLimits = BUNDLE_LIMITS): Promise<PluginBundle> {
  const root = await pluginRoot(dir);
  const files: BundleFile[] = [];
  const budget = { total: 0 };
  await walk(root, root, "", new Set([root]), files, budget, dir, limits);
  return makeBundle(files, dir, limits);
}

async function walk(
  root: string,
  real: string,
  prefix: string,
  onPath: Set<string>,
  files: BundleFile[],
  budget: { total: number },
  where: string,
  limits: BundleLimits,
): Promise<void> {
  const names = (await readdir(real)).sort();
  for (const name of names) {
    const path = prefix === "" ? name : `${prefix}/${name}`;
    if (excluded(path)) continue;
    const at = join(real, name);
    const entry = await lstat(at);
    let target = at;
    let info = entry;
    if (entry.isSymbolicLink()) {
      const to = await realpath(at).catch(() => undefined);
      if (to === undefined) {
        throw bundleError(`${where}: ${path} is a link to a file that does not exist; remove the link.`, {
          detail: "broken link",
          path,
        });
      }
      if (!isInside(root, to)) {
        throw bundleError(
          `${where}: ${path} is a link that leads out of the plugin folder, to ${to}; put the file itself inside the folder.`,
          { detail: "link out of the folder", path },
        );
      }
      target = to;
      info = await stat(to);
    }
    if (info.isDirectory()) {
      // A link back up to a folder on the way down would never end.
      if (onPath.has(target)) {
        throw bundleError(`${where}: ${path} is a link to a folder it is inside of; remove the link.`, {
          detail: "link loop",
          path,
        });
      }
      await walk(root, target, path, new Set([...onPath, target]), files, budget, where, limits);
      continue;
    }
    if (!info.isFile()) {
      throw bundleError(
        `${where}: ${path} is neither a file nor a folder (a socket, FIFO or device); remove it.`,
        {
          detail: "not a file",
          path,
        },
      );
    }
    if (info.size > limits.maxFileBytes) throw fileTooLarge(where, path, info.size, limits);
    budget.total += info.size;
    if (budget.total > limits.maxTotalBytes) throw totalTooLarge(where, path, limits);
    if (files.length >= limits.maxFiles) throw tooManyFiles(where, limits);
    files.push({ path, bytes: await readChecked(target, info.ino, path, where) });
  }
}

/** The file at `real`, opened without following a link and checked to be the one walked. */
async function readChecked(real: string, ino: number, path: string, where: string): Promise<Uint8Array> {
  const handle = await open(real, constants.O_RDONLY | NO_FOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ELOOP") throw error;
    throw bundleError(
      `${where}: ${path} was swapped for a link while it was read; bundle the folder again.`,
      {
        detail: "changed while read",
        path,
      },
    );
  });
  try {
    const opened = await handle.stat();
    if (opened.ino !== ino || !opened.isFile()) {
      throw bundleError(`${where}: ${path} changed while it was read; bundle the folder again.`, {
        detail: "changed while read",
        path,
      });
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** What `oz0 plugin pack` makes of a folder: its bundle's digest and size, and the archive. */
export interface PackedFolder {
  readonly digest: string;
  readonly files: number;
  /** The files' bytes, before compression. */
  readonly bytes: number;
  /** The gzipped tar, `archive.byteLength` bytes. */
  readonly archive: Buffer;
}

/** The plugin folder `dir` bundled and packed into one archive, for `oz0 plugin install <file>` or an upload. */
export async function packFolder(dir: string, limits: BundleLimits = BUNDLE_LIMITS): Promise<PackedFolder> {
  const bundle = await bundleFolder(dir, limits);
  return {
    digest: bundle.digest,
    files: bundle.files.length,
    bytes: bundle.files.reduce((sum, file) => sum + file.bytes.byteLength, 0),
    archive: await packBundle(bundle),
  };
}
