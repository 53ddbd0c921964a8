// What a bundle is: a plugin's files as relative paths and bytes, checked against the bundle
// rules (paths confined, sizes bounded) and named by the sha256 digest of their canonical form
// (docs/plugins.md, "Bundles"), so the same files always make the same digest.
import { createHash } from "node:crypto";
import { Oz0Error } from "@oz0/sdk";

/** One file of a bundle: its path inside the plugin, `/`-separated, and its bytes. */
export interface BundleFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** A plugin's files, sorted by path, and the digest of them. */
export interface PluginBundle {
  /** The sha256 of the files' canonical form, 64 lowercase hex digits. */
  readonly digest: string;
  readonly files: readonly BundleFile[];
}

/** The bounds every bundle keeps, whether built from a folder, unpacked, or read from the cache. */
export interface BundleLimits {
  /** The largest one file may be, in bytes. */
  readonly maxFileBytes: number;
  /** The most all files together may hold, in bytes. */
  readonly maxTotalBytes: number;
  readonly maxFiles: number;
  /** The longest a path may be, in bytes of UTF-8. */
  readonly maxPathBytes: number;
}

export const BUNDLE_LIMITS: BundleLimits = {
  maxFileBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxFiles: 10_000,
  maxPathBytes: 1024,
};

/** The first bytes of the canonical form: a new form gets a new tag, so digests never collide across forms. */
const FORM_TAG = "oz0-bundle-v1\n";

export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;

/** An INVALID_BUNDLE error; `where` names the bundle (a folder, an archive) for the message. */
export function bundleError(
  message: string,
  data: { detail: string; path?: string; limit?: string; max?: number; digest?: string },
): Oz0Error {
  return new Oz0Error("INVALID_BUNDLE", message, { data });
}

/** Why `path` may not be a bundle path, or `undefined` when it may. */
export function pathProblem(path: string, limits: BundleLimits = BUNDLE_LIMITS): string | undefined {
  if (path === "") return "is empty";
  if (Buffer.byteLength(path) > limits.maxPathBytes) return `is longer than ${limits.maxPathBytes} bytes`;
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is an absolute path";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\\]/.test(path)) return "holds a backslash or a control character";
  for (const segment of path.split("/")) {
    if (segment === "..") return "leads out of the plugin folder (..)";
    if (segment === "" || segment === ".") return "has an empty or '.' segment";
  }
  return undefined;
}

function byPath(a: BundleFile, b: BundleFile): number {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}

/**
 * The files as a bundle: each path checked, no path twice, no file a folder of another, sizes
 * and count within `limits`, sorted by path (bytewise, UTF-8), with their digest.
 * `where` names where the files came from, for messages.
 */
export function makeBundle(
  files: readonly BundleFile[],
  where: string,
  limits: BundleLimits = BUNDLE_LIMITS,
): PluginBundle {
  if (files.length > limits.maxFiles) throw tooManyFiles(where, limits);
  let total = 0;
  for (const file of files) {
    const problem = pathProblem(file.path, limits);
    if (problem !== undefined) {
      throw bundleError(
        `${where}: the path '${file.path}' ${problem}; a bundle holds only paths inside the plugin folder.`,
        {
          detail: "path not allowed",
          path: file.path,
        },
      );
    }
    if (file.bytes.byteLength > limits.maxFileBytes)
      throw fileTooLarge(where, file.path, file.bytes.byteLength, limits);
    total += file.bytes.byteLength;
    if (total > limits.maxTotalBytes) throw totalTooLarge(where, file.path, limits);
  }
  const sorted = [...files].sort(byPath);
  const paths = new Set<string>();
  for (const file of sorted) {
    if (paths.has(file.path)) {
      throw bundleError(`${where}: the path '${file.path}' is there twice; a bundle holds each path once.`, {
        detail: "path twice",
        path: file.path,
      });
    }
    paths.add(file.path);
  }
  for (const file of sorted) {
    const segments = file.path.split("/");
    for (let end = 1; end < segments.length; end += 1) {
      const folder = segments.slice(0, end).join("/");
      if (!paths.has(folder)) continue;
      throw bundleError(`${where}: '${folder}' is both a file and the folder of ${file.path}.`, {
        detail: "file and folder",
        path: folder,
      });
    }
  }
  return { digest: digestOf(sorted), files: sorted };
}

/**
 * The digest of files already sorted by path: sha256 over the form tag, then for each file
 * its path (UTF-8), a NUL, its length in decimal ASCII, a NUL, and its bytes.
 */
function digestOf(sorted: readonly BundleFile[]): string {
  const hash = createHash("sha256").update(FORM_TAG);
  for (const file of sorted) {
    hash.update(file.path).update("\0").update(String(file.bytes.byteLength)).update("\0").update(file.bytes);
  }
  return hash.digest("hex");
}

export function fileTooLarge(where: string, path: string, size: number, limits: BundleLimits): Oz0Error {
  return bundleError(
    `${where}: ${path} is ${size} bytes, over the bundle's limit of ${limits.maxFileBytes} bytes per file (maxFileBytes); ` +
      "leave it out of the plugin folder or make it smaller.",
    { detail: "file too large", path, limit: "maxFileBytes", max: limits.maxFileBytes },
  );
}

export function totalTooLarge(where: string, path: string, limits: BundleLimits): Oz0Error {
  return bundleError(
    `${where}: the files come to more than the bundle's limit of ${limits.maxTotalBytes} bytes in all (maxTotalBytes), ` +
      `passed at ${path}; leave out what the plugin does not need at run time.`,
    { detail: "bundle too large", path, limit: "maxTotalBytes", max: limits.maxTotalBytes },
  );
}

export function tooManyFiles(where: string, limits: BundleLimits): Oz0Error {
  return bundleError(
    `${where}: more than the bundle's limit of ${limits.maxFiles} files (maxFiles); leave out what the plugin does not need at run time.`,
    { detail: "too many files", limit: "maxFiles", max: limits.maxFiles },
  );
}
