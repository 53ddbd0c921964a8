// The data files the sample tools answer from, shipped in the plugin's data/ folder. They are
// part of the plugin, like its code, so they are read beside the module (src/ and dist/ sit at
// the same depth) rather than through the tool runtime, which serves the tenant's files.
import { readFile } from "node:fs/promises";
import { Oz0Error } from "@oz0/sdk";

const cache = new Map<string, Promise<unknown>>();

/** The parsed JSON file `data/<name>`, read once per process. */
export function readData<T>(name: string): Promise<T> {
  let found = cache.get(name);
  if (found === undefined) {
    found = load(name);
    cache.set(name, found);
    found.catch(() => cache.delete(name));
  }
  return found as Promise<T>;
}

async function load(name: string): Promise<unknown> {
  const url = new URL(`../data/${name}`, import.meta.url);
  try {
    return JSON.parse(await readFile(url, "utf8"));
  } catch (cause) {
    throw new Oz0Error(
      "INTERNAL",
      `the samples plugin cannot read its data file data/${name}: ${(cause as Error).message}`,
      { cause, data: { cause: String(cause) } },
    );
  }
}
