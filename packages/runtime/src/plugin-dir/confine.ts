// Confines every read and write of a plugin's files to the plugin's own folder: neither `..`,
// an absolute path, nor a symbolic link may lead out. A link that stays inside is followed.
// Files are opened without following a last link and checked again once open, so a file
// swapped for a link between the check and the open is refused too. The system calls are made
// synchronously, as Node's module loader makes its own: each is a few microseconds on a local
// file, where the thread pool takes 50–100 µs to hand an answer back, and a job's set-up reads
// some files (a test model's script, an output schema) with ten of them each.
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Oz0Error } from "@oz0/sdk";

/** The field of a plugin file that named a path, for messages; a file the loader looks for itself has none. */
export interface NamedBy {
  readonly file: string;
  readonly field: string;
}

// Windows has no O_NOFOLLOW; the check after opening still applies there.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The refusals of paths that lead out of the folder, which lint reports as OZ-S001. */
const escapes = new WeakSet<Oz0Error>();

/** The INVALID_MANIFEST error for a path refused: it leads out, is missing, or is not a file. */
function refusal(path: string, why: string, where: NamedBy | undefined, escaping: boolean): Oz0Error {
  const file = where?.file ?? path;
  const subject = where === undefined ? path : `${where.file}: ${where.field} '${path}'`;
  const message = where === undefined ? `${path} ${why}` : `'${path}' ${why}`;
  const error = new Oz0Error("INVALID_MANIFEST", `${subject} ${why}`, {
    data: { issues: [{ file, line: 0, column: 0, path: where?.field ?? [], message }] },
  });
  if (escaping) escapes.add(error);
  return error;
}

function linkOut(path: string, real: string, where: NamedBy | undefined): Oz0Error {
  const why = `is a link that leads out of the plugin folder, to ${real}; put the file itself inside the folder`;
  return refusal(path, why, where, true);
}

/** Whether `error` is a refusal of a path that leads out of the plugin folder. */
export function isEscape(error: unknown): error is Oz0Error {
  return error instanceof Oz0Error && escapes.has(error);
}

/**
 * The real path of `path` inside `root`, or an `INVALID_MANIFEST` error naming the file (and
 * the field that gave it) and where it leads. A file that does not exist is an error too:
 * plugins must ship what they name.
 */
export async function resolveInPlugin(root: string, path: string, where?: NamedBy): Promise<string> {
  if (isAbsolute(path))
    throw refusal(path, "is an absolute path; name a file inside the plugin folder instead", where, true);
  const realRoot = realpath(root);
  const lexical = resolve(realRoot, path);
  if (!isInside(realRoot, lexical))
    throw refusal(path, "leads out of the plugin folder; name a file inside it", where, true);
  let real: string;
  try {
    real = realpath(lexical);
  } catch {
    throw refusal(path, "does not exist in the plugin folder", where, false);
  }
  if (!isInside(realRoot, real)) throw linkOut(path, real, where);
  return real;
}

/**
 * The names in the plugin's folder `folder` (`agents`, `skills`, `tools`), sorted; none when it
 * does not exist. A folder that is a link out of the plugin is refused, not listed.
 */
export async function listInPlugin(root: string, folder: string): Promise<string[]> {
  if (lstatOrUndefined(join(root, folder)) === undefined) return [];
  const real = await resolveInPlugin(root, folder).catch((error: unknown) => {
    // A link that leads nowhere is a folder the plugin does not have.
    if (error instanceof Oz0Error && !isEscape(error)) return undefined;
    throw error;
  });
  if (real === undefined || !statSync(real).isDirectory()) return [];
  return readdirSync(real).sort();
}

/** The least a bounded read asks for at once. */
const MIN_READ_BYTES = 4096;

/**
 * The text of the plugin's file `path`, read only when it resolves inside the folder. With
 * `maxBytes`, at most one byte more is read, so a parser that refuses what is over the limit
 * refuses a huge file without it being read whole.
 */
export async function readInPlugin(
  root: string,
  path: string,
  options: { readonly where?: NamedBy; readonly maxBytes?: number } = {},
): Promise<string> {
  const { where, maxBytes } = options;
  const real = await resolveInPlugin(root, path, where);
  const { fd, opened } = openChecked(real, constants.O_RDONLY, path, where);
  try {
    if (maxBytes === undefined) return readFileSync(fd, "utf8");
    // Sized by the file, not by the limit: a file read for every job (a test model's script) is
    // most often a few hundred bytes, and a buffer of the limit would be a MiB each time. It
    // grows if the file does, up to one byte over the limit.
    const limit = maxBytes + 1;
    let buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(opened.size + 1, MIN_READ_BYTES)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length === limit) break;
        const grown = Buffer.allocUnsafe(Math.min(limit, length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to the plugin's file `path`, which stays inside the folder: its folder must
 * resolve inside, and the file, when it is a link, must lead inside too.
 */
export async function writeInPlugin(root: string, path: string, text: string): Promise<void> {
  const realRoot = realpath(root);
  const lexical = resolve(realRoot, path);
  if (!isInside(realRoot, lexical) || lexical === realRoot)
    throw refusal(path, "leads out of the plugin folder", undefined, true);
  const folder = await resolveInPlugin(realRoot, relative(realRoot, dirname(lexical)) || ".");
  let target = join(folder, basename(lexical));
  const link = lstatOrUndefined(target);
  if (link?.isSymbolicLink()) {
    const real = realpathOrUndefined(target);
    if (real === undefined) {
      const to = readlinkSync(target);
      throw refusal(path, `is a link to ${to}, which does not exist; remove the link`, undefined, true);
    }
    if (!isInside(realRoot, real)) throw linkOut(path, real, undefined);
    target = real;
  }
  // Not truncated on open: only once the opened file is known to be the one checked.
  const { fd } = openChecked(target, constants.O_WRONLY | constants.O_CREAT, path, undefined);
  try {
    ftruncateSync(fd, 0);
    writeFileSync(fd, text, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the real path `real` without following a last link, then checks that the file opened
 * is still the one at `real` and that `real` still has no link on its way: a file or folder
 * swapped for a link since `real` was resolved is refused. With the descriptor, what it has open.
 */
function openChecked(
  real: string,
  flags: number,
  path: string,
  where: NamedBy | undefined,
): { readonly fd: number; readonly opened: Stats } {
  let fd: number;
  try {
    fd = openSync(real, flags | NO_FOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw linkOut(path, realpathOrUndefined(real) ?? "a file that does not exist", where);
    }
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw refusal(path, "is not a file", where, false);
    const now = realpathOrUndefined(real);
    const there = now === real ? statOrUndefined(real) : undefined;
    if (there === undefined || there.ino !== opened.ino || there.dev !== opened.dev) {
      const why = "changed while it was opened (a folder on its way was swapped for a link)";
      throw refusal(path, why, where, true);
    }
    return { fd, opened };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The real path, as realpath(3) gives it (what `fs.promises.realpath` calls too). */
function realpath(path: string): string {
  return realpathSync.native(path);
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpath(path);
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
