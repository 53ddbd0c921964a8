// Creating the folders a command writes to (oz0's home, a new plugin's folder), a level at a
// time. Node's recursive mkdir never returns for a path under a folder that refuses children
// with ENOENT (anything under /proc), so the CLI makes each missing level itself and stops at
// the first that cannot be made.
import { mkdir, rmdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { invalidInput } from "./errors.js";

/** How a refusal names where the folder came from: `--home` and its issue path `home`. */
export interface FolderOrigin {
  readonly said: string;
  readonly issue: string;
}

/**
 * Creates `path` and any missing folders above it; returns the folders it created, the
 * deepest last, so a caller that fails later can take them away again. `mode` is the mode of
 * `path` itself when it is made.
 */
export async function makeFolder(
  path: string,
  origin: FolderOrigin,
  options: { readonly mode?: number } = {},
): Promise<string[]> {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => error);
    if (!(found instanceof Error)) {
      if (!found.isDirectory()) throw await notAFolder(at, path, origin, "it is a file");
      break;
    }
    if (found.code !== "ENOENT") throw await notAFolder(at, path, origin, found.message);
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  const made: string[] = [];
  for (const folder of missing) {
    try {
      await mkdir(folder, folder === missing.at(-1) ? { mode: options.mode } : {});
    } catch (error) {
      await removeFolders(made);
      throw await notAFolder(folder, path, origin, (error as Error).message);
    }
    made.push(folder);
  }
  return made;
}

/** Removes folders `makeFolder` made, the deepest first, each only while it is empty. */
export async function removeFolders(made: readonly string[]): Promise<void> {
  for (const folder of [...made].reverse()) await rmdir(folder).catch(() => {});
}

async function notAFolder(at: string, path: string, origin: FolderOrigin, why: string): Promise<Error> {
  return invalidInput(
    `${origin.said} ${path}: oz0 cannot make the folder ${at} (${why}); give a folder oz0 may create and write to`,
    origin.issue,
    "not a folder oz0 can create",
  );
}
