// Bundles on disk, where a process loads them from: `<home>/bundles/<runtime>/<digest>/`, one
// folder per digest, written once (into a temporary folder renamed into place, so no process ever sees a
// half-written one) and checked against its digest the first time each process uses it; a
// folder whose files no longer make its digest is written afresh. Modules in a bundle import
// `@oz0/sdk` (and what else the runtime has) through `<home>/bundles/<runtime>/node_modules`, a
// link to the node_modules folder the runtime finds `@oz0/sdk` in.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type BundleFile, bundleError, DIGEST_PATTERN, makeBundle, type PluginBundle } from "./digest.js";

/**
 * Where this oz0 keeps bundles under a home: `<home>/bundles/<runtime>/`, where `<runtime>`
 * names the node_modules folder this oz0 resolves `@oz0/sdk` from. Two oz0 installations that
 * share a home (two checkouts, two versions) each keep their own copies and their own link,
 * so neither ever loads a plugin against the other's SDK.
 */
export function bundlesRoot(home: string): string {
  const modules = runtimeModules();
  const runtime =
    modules === undefined ? "no-sdk" : createHash("sha256").update(modules).digest("hex").slice(0, 12);
  return join(home, "bundles", runtime);
}

/**
 * The bundles under one home, as one process uses them: each folder is checked against its
 * digest the first time this cache is asked for it, and kept as checked after that.
 */
export class BundleCache {
  readonly root: string;
  private readonly checked = new Map<string, Promise<string>>();

  constructor(home: string) {
    this.root = bundlesRoot(home);
  }

  /**
   * The folder of bundle `digest`, ready to load: as it is when its files make the digest,
   * written from `read()` when it is missing or they do not.
   */
  dir(digest: string, read: () => Promise<PluginBundle>): Promise<string> {
    if (!DIGEST_PATTERN.test(digest)) {
      return Promise.reject(
        bundleError(`'${digest}' is not a bundle digest (64 lowercase hex digits).`, {
          detail: "bad digest",
          digest,
        }),
      );
    }
    const dir = join(this.root, digest);
    let found = this.checked.get(dir);
    if (found === undefined) {
      found = materialise(this.root, dir, digest, read);
      this.checked.set(dir, found);
      // A failure is not kept: the next use tries again.
      found.catch(() => this.checked.delete(dir));
    }
    return found;
  }

  /** The folder of `bundle`, written from the bundle in hand when it is not there yet. */
  put(bundle: PluginBundle): Promise<string> {
    return this.dir(bundle.digest, async () => bundle);
  }
}

async function materialise(
  root: string,
  dir: string,
  digest: string,
  read: () => Promise<PluginBundle>,
): Promise<string> {
  await mkdir(root, { recursive: true });
  await linkModules(root);
  if (existsSync(dir)) {
    if ((await digestOfFolder(dir)) === digest) return dir;
    // Changed on disk since it was written: moved aside first, so no process loads it half-removed.
    const stale = join(root, `.stale-${digest.slice(0, 12)}-${randomBytes(4).toString("hex")}`);
    await rename(dir, stale).catch(() => undefined);
    await rm(stale, { recursive: true, force: true });
  }
  const bundle = await read();
  if (bundle.digest !== digest) {
    throw bundleError(
      `bundle ${digest} was read back with the digest ${bundle.digest}; the store's copy is damaged.`,
      {
        detail: "digest mismatch",
        digest,
      },
    );
  }
  const temp = await mkdtemp(join(root, `.tmp-${digest.slice(0, 12)}-`));
  try {
    await writeFiles(temp, bundle.files);
    await rename(temp, dir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    // Another process wrote the same bundle first: theirs is as good, once checked.
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "EEXIST" && code !== "ENOTEMPTY") || (await digestOfFolder(dir)) !== digest) throw error;
  }
  return dir;
}

async function writeFiles(dir: string, files: readonly BundleFile[]): Promise<void> {
  const folders = new Set<string>();
  for (const file of files) {
    const path = join(dir, ...file.path.split("/"));
    const folder = dirname(path);
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    await writeFile(path, file.bytes, { flag: "wx" });
    // Read-only: a bundle is immutable, and an edit belongs in the plugin's folder and an update.
    await chmod(path, 0o444);
  }
}

/** The digest the files under `dir` make; `undefined` when it holds anything but files and folders. */
async function digestOfFolder(dir: string): Promise<string | undefined> {
  const files: BundleFile[] = [];
  async function walk(at: string, prefix: string): Promise<boolean> {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!(await walk(full, path))) return false;
      } else if (entry.isFile()) {
        files.push({ path, bytes: await readFile(full) });
      } else {
        return false;
      }
    }
    return true;
  }
  try {
    if (!(await walk(dir, ""))) return undefined;
    return makeBundle(files, dir).digest;
  } catch {
    return undefined;
  }
}

/**
 * Points `<root>/node_modules` at the node_modules folder the runtime resolves `@oz0/sdk` from,
 * so a bundle's bare imports that its own node_modules do not satisfy (`@oz0/sdk` always, as a
 * bundle never holds one) resolve as they do for the runtime, under Node and any resolver that
 * walks node_modules folders. A link to another oz0's modules is pointed here instead.
 */
async function linkModules(root: string): Promise<void> {
  const target = runtimeModules();
  if (target === undefined) return;
  const link = join(root, "node_modules");
  const now = await readlink(link).catch(() => undefined);
  if (now === target) return;
  const exists = now !== undefined || (await lstat(link).catch(() => undefined)) !== undefined;
  if (exists && now === undefined) {
    throw bundleError(
      `${link} is not a link oz0 made; move it away so oz0 can link the modules plugins import.`,
      {
        detail: "node_modules in the way",
      },
    );
  }
  // Made under another name and renamed over the old one: the link is never missing.
  const temp = join(root, `.node_modules-${randomBytes(4).toString("hex")}`);
  await symlink(target, temp, process.platform === "win32" ? "junction" : "dir");
  await rename(temp, link);
}

let modules: string | null | undefined;

/** The node_modules folder the runtime finds `@oz0/sdk` in; `undefined` when it finds none. */
function runtimeModules(): string | undefined {
  if (modules === undefined) {
    const paths = createRequire(import.meta.url).resolve.paths("@oz0/sdk") ?? [];
    modules = paths.find((folder) => existsSync(join(folder, "@oz0", "sdk", "package.json"))) ?? null;
  }
  return modules ?? undefined;
}
