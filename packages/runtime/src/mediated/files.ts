// A tool's file operations, each confined to its roots (roots.ts): reads and listings
// anywhere in them, writes only in the writable ones, with size and entry caps.
import { constants } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { DirEntry, ListDirOptions, ReadFileOptions, WriteFileOptions } from "@oz0/sdk";
import { Oz0Error } from "@oz0/sdk";
import type { Confinement } from "./roots.js";

/** The most a read returns, whatever a tool asks: 16 MiB. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;
/** The most entries a listing returns, whatever a tool asks. */
export const MAX_LIST_ENTRIES = 10_000;

export async function readConfined(
  confinement: Confinement,
  path: string,
  options: ReadFileOptions = {},
): Promise<string> {
  const { real } = await confinement.existing(path, "read");
  const max = Math.min(options.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
  const handle = await confinement.openFile(path, real, "read", constants.O_RDONLY);
  try {
    const { size } = await handle.stat();
    if (size > max) throw tooLarge(path, max);
    const bytes = await handle.readFile();
    if (bytes.length > max) throw tooLarge(path, max);
    return bytes.toString(options.encoding ?? "utf8");
  } finally {
    await handle.close();
  }
}

export async function writeConfined(
  confinement: Confinement,
  path: string,
  content: string,
  options: WriteFileOptions = {},
): Promise<void> {
  const { real } = await confinement.target(path, options.makeDirs === true);
  // Opened without truncating, so a file the checks refuse (a link, a hard-linked file) is left as it was.
  const flags = constants.O_WRONLY | constants.O_CREAT | (options.append === true ? constants.O_APPEND : 0);
  const handle = await confinement.openFile(path, real, "write", flags);
  try {
    if (options.append !== true) await handle.truncate(0);
    await handle.writeFile(Buffer.from(content, options.encoding ?? "utf8"));
  } finally {
    await handle.close();
  }
}

export async function listConfined(
  confinement: Confinement,
  path: string,
  options: ListDirOptions = {},
): Promise<DirEntry[]> {
  const { real } = await confinement.existing(path, "read");
  const max = Math.min(options.maxEntries ?? MAX_LIST_ENTRIES, MAX_LIST_ENTRIES);
  const entries: DirEntry[] = [];
  const folders = [real];
  while (folders.length > 0 && entries.length < max) {
    const folder = folders.shift()!;
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTDIR") throw new Oz0Error("INVALID_INPUT", `runtime: '${path}' is not a folder`);
      throw error;
    }
    for (const name of names) {
      if (entries.length >= max) break;
      const at = join(folder, name);
      // lstat: a link is listed as a link and never followed, so a listing stays inside the roots.
      const stat = await lstat(at);
      const type = stat.isSymbolicLink()
        ? "symlink"
        : stat.isDirectory()
          ? "directory"
          : stat.isFile()
            ? "file"
            : "other";
      entries.push({ name, path: at, type, ...(type === "file" ? { size: stat.size } : {}) });
      if (type === "directory" && options.recursive === true) folders.push(at);
    }
  }
  return entries;
}

function tooLarge(path: string, max: number): Oz0Error {
  return new Oz0Error("LIMIT_EXCEEDED", `runtime: '${path}' is larger than ${max} bytes`, {
    data: { limit: "maxBytes", max, unit: "bytes" },
  });
}
