// Where a tool's file operations may reach: a few roots (the project, the agent's folder, the
// tool's own folder), each readable and some writable. A path is resolved the way the
// operating system would (symbolic links followed) and must land inside a root; `..` is
// refused outright, so a path never climbs out and back in.
import { constants } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { Oz0Error } from "@oz0/sdk";

export interface MediatedRoot {
  /** What the root is, as messages name it (`project`, `agent`, `tool`). */
  readonly name: string;
  readonly path: string;
  readonly writable: boolean;
}

/** A root with its real path, as confinement compares them. */
interface RealRoot extends MediatedRoot {
  readonly real: string;
}

/** Refused: a path outside the call's roots, or one the runtime cannot vouch for. */
export function outsideRoots(path: string, why: string): Oz0Error {
  return new Oz0Error("PATH_OUTSIDE_ROOTS", `runtime: '${path}' ${why}`, { data: { path } });
}

export class Confinement {
  readonly #roots: readonly MediatedRoot[];
  /** Where a relative path starts: the first root (the project's when there is one). */
  readonly base: string;
  #real: Promise<RealRoot[]> | undefined;

  constructor(roots: readonly MediatedRoot[]) {
    if (roots.length === 0) throw new Error("a mediated runtime needs at least one root");
    this.#roots = roots;
    this.base = roots[0]!.path;
  }

  get roots(): readonly MediatedRoot[] {
    return this.#roots;
  }

  /** The roots' real paths; a root that does not exist is created (its paths exist, as ToolContext promises). */
  async realRoots(): Promise<RealRoot[]> {
    this.#real ??= Promise.all(
      this.#roots.map(async (root) => {
        await mkdir(root.path, { recursive: true });
        return { ...root, real: await realpath(root.path) };
      }),
    );
    return this.#real;
  }

  /** The lexical absolute path of `path` (relative ones from the base), refusing `..` and NUL. */
  lexical(path: string): string {
    if (typeof path !== "string" || path === "") throw outsideRoots(String(path), "is not a path");
    if (path.includes("\0")) throw outsideRoots(path.replaceAll("\0", "\\0"), "holds a NUL character");
    if (path.split(/[\\/]/).includes("..")) {
      throw outsideRoots(path, "holds '..': name the file by a path inside the tool's roots");
    }
    return isAbsolute(path) ? resolve(path) : resolve(this.base, path);
  }

  /** The root that holds real path `real`, or undefined. */
  async rootOf(real: string): Promise<RealRoot | undefined> {
    // The most specific root wins: a read-only tool folder inside a writable agent folder stays read-only.
    let found: RealRoot | undefined;
    for (const root of await this.realRoots()) {
      if (!inside(root.real, real)) continue;
      if (found === undefined || root.real.length > found.real.length) found = root;
    }
    return found;
  }

  /**
   * The real path of an existing `path` inside a root (symbolic links followed, so one that
   * points out is refused), with that root; a write needs a writable root.
   */
  async existing(path: string, access: "read" | "write"): Promise<{ real: string; root: RealRoot }> {
    const lexical = this.lexical(path);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch (error) {
      throw notFound(path, error);
    }
    return { real, root: await this.check(path, real, access) };
  }

  /**
   * Where a new or existing file `path` is: its parent must exist inside a root (or be made,
   * folder by folder, each checked, with `makeDirs`), and the name must not be a link.
   */
  async target(path: string, makeDirs: boolean): Promise<{ real: string; root: RealRoot }> {
    const lexical = this.lexical(path);
    const parent = resolve(lexical, "..");
    const name = lexical.slice(parent.length + (parent.endsWith(sep) ? 0 : 1));
    if (name === "") throw outsideRoots(path, "names no file");
    let realParent: string;
    try {
      realParent = await realpath(parent);
    } catch (error) {
      if (!makeDirs) throw notFound(path, error);
      realParent = await this.makeDirs(path, parent);
    }
    const root = await this.check(path, realParent, "write");
    return { real: join(realParent, name), root };
  }

  /** Checks that real path `real` is inside a root that allows `access`. */
  async check(path: string, real: string, access: "read" | "write"): Promise<RealRoot> {
    const root = await this.rootOf(real);
    if (root === undefined) {
      const names = (await this.realRoots()).map((one) => one.name).join(", ");
      throw outsideRoots(
        path,
        `is outside the tool's roots (${names})${real === this.lexical(path) ? "" : `: it leads to ${real}`}`,
      );
    }
    if (access === "write" && !root.writable) {
      throw outsideRoots(path, `is in the ${root.name} folder, which tools may read but not write`);
    }
    return root;
  }

  /** Makes the missing folders of `parent` one at a time, each checked inside a writable root first. */
  private async makeDirs(path: string, parent: string): Promise<string> {
    const missing: string[] = [];
    let existing = parent;
    for (;;) {
      try {
        const real = await realpath(existing);
        await this.check(path, real, "write");
        let at = real;
        for (const name of missing.reverse()) {
          at = join(at, name);
          await mkdir(at).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== "EEXIST") throw error;
          });
          // A folder made meanwhile as a link is caught here.
          const stat = await lstat(at);
          if (!stat.isDirectory()) throw outsideRoots(path, `has ${at} in its way, which is not a folder`);
        }
        return at;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        const up = resolve(existing, "..");
        if (up === existing) throw notFound(path, error);
        missing.push(existing.slice(up.length + (up.endsWith(sep) ? 0 : 1)));
        existing = up;
      }
    }
  }

  /**
   * Opens the file at real path `real` without following a link in its last part, and checks
   * what was opened: a regular file (or none yet, for a write), inside a root, with one link.
   */
  async openFile(path: string, real: string, access: "read" | "write", flags: number): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await open(real, flags | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") throw outsideRoots(path, "is a symbolic link, which tools may not write through");
      if (code === "EISDIR") throw outsideRoots(path, "is a folder");
      throw notFound(path, error);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw outsideRoots(path, "is not a regular file");
      // Another name of the same file may be outside the roots; nothing here can tell where it is.
      if (stat.nlink > 1) {
        throw outsideRoots(
          path,
          `has ${stat.nlink} hard links, so the same file may have a name outside the tool's roots; the runtime does not read or write it`,
        );
      }
      // Linux tells the real path of what was opened: a folder swapped for a link after the check is caught.
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => "");
      if (opened.startsWith("/")) await this.check(path, opened, access);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** Whether real path `child` is `parent` or inside it. */
export function inside(parent: string, child: string): boolean {
  const between = relative(parent, child);
  return between === "" || (!between.startsWith("..") && !isAbsolute(between));
}

function notFound(path: string, error: unknown): Oz0Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new Oz0Error("NOT_FOUND", `runtime: '${path}' does not exist`, {
      data: { kind: "file", name: path },
    });
  }
  return new Oz0Error("INTERNAL", `runtime: '${path}': ${(error as Error).message}`, { cause: error });
}
