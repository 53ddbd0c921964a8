// Confines a path a plugin names (instructions, scripts, schemas, its code entry) to the
// plugin's own folder: neither `..`, an absolute path, nor a symbolic link may lead out.
import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { Oz0Error } from "@oz0/sdk";

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The real path of `path` inside `root`, or an `INVALID_MANIFEST` error naming the field
 * that gave it. A file that does not exist is an error too: plugins must ship what they name.
 */
export async function resolveInPlugin(
  root: string,
  path: string,
  where: { file: string; field: string },
): Promise<string> {
  const fail = (why: string) =>
    new Oz0Error("INVALID_MANIFEST", `${where.file}: ${where.field} '${path}' ${why}`, {
      data: {
        issues: [{ file: where.file, line: 0, column: 0, path: where.field, message: `'${path}' ${why}` }],
      },
    });
  if (isAbsolute(path)) throw fail("is an absolute path; name a file inside the plugin folder instead");
  const realRoot = await realpath(root);
  const lexical = resolve(realRoot, path);
  if (!isInside(realRoot, lexical)) throw fail("leads out of the plugin folder; name a file inside it");
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw fail("does not exist in the plugin folder");
  }
  if (!isInside(realRoot, real))
    throw fail("is a link that leads out of the plugin folder; name a file inside it");
  return real;
}
