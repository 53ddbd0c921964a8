// Plugin bundles: a plugin's files as one content-addressed unit, built from a folder, packed
// into one archive and back, stored once, and loaded by every process from the copy under its
// home, never from the folder it was installed from.
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import tar from "tar-stream";
import { afterAll, describe, expect, it } from "vitest";
import {
  BUNDLE_LIMITS,
  type BundleLimits,
  bundleFolder,
  bundlesRoot,
  packBundle,
  unpackBundle,
} from "../../src/bundles/index.js";
import { Catalog } from "../../src/catalog/index.js";
import { Runtime } from "../../src/runtime.js";
import { openStore } from "../../src/store/index.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `oz0-bundles-${prefix}-`));
  made.push(dir);
  return dir;
}

/**
 * A plugin whose code imports @oz0/sdk: a tool `probe.where` answering where its module was
 * loaded from, and an agent on the test model that calls it once.
 */
const PROBE_MANIFEST = `name: probe
version: 1.0.0
description: Says where its code runs from.
main: index.js
capabilities: [tool]
tools:
  - id: probe
    description: Where the code runs from.
agents:
  - name: asker
    description: Asks the probe.
    model: { use: test }
    tools: [probe.where]
`;

const PROBE_CODE = `import { definePlugin, Oz0Error } from "@oz0/sdk";
globalThis.__oz0BundleProbe = { url: import.meta.url, Oz0Error };
export default definePlugin({
  setup(host) {
    host.addTool({
      name: "probe",
      description: "Where the code runs from.",
      build: () => ({
        functions: [{
          name: "where",
          description: "The URL of the module.",
          input: { type: "object", properties: {} },
          run: async () => ({ url: import.meta.url, version: "one" }),
        }],
      }),
    });
  },
});
`;

async function probeFolder(): Promise<string> {
  const dir = join(await temp("probe"), "probe");
  await mkdir(dir);
  await writeFile(join(dir, "plugin.yaml"), PROBE_MANIFEST);
  await writeFile(join(dir, "index.js"), PROBE_CODE);
  return dir;
}

async function refused(work: Promise<unknown>): Promise<Oz0Error> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isOz0Error(error), String(error)).toBe(true);
  expect((error as Oz0Error).code, (error as Oz0Error).message).toBe("INVALID_BUNDLE");
  return error as Oz0Error;
}

/** A gzipped tar with the given raw entries, as a hostile client could send. */
async function rawArchive(
  entries: { header: Partial<tar.Header> & { name: string }; body?: Buffer }[],
): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    pack.on("end", resolve);
  });
  for (const { header, body } of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry(header, body ?? Buffer.alloc(0), (error) => (error ? reject(error) : resolve())),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

const small = (limits: Partial<BundleLimits>): BundleLimits => ({ ...BUNDLE_LIMITS, ...limits });

describe("bundling a folder", () => {
  it("identical content makes the same digest, wherever the folder is and whenever it was written", async () => {
    const one = await probeFolder();
    const two = join(await temp("copy"), "elsewhere");
    await cp(one, two, { recursive: true });
    const [a, b] = [await bundleFolder(one), await bundleFolder(two)];
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    expect(a.files.map((file) => file.path)).toEqual(["index.js", "plugin.yaml"]);
  });

  it("a changed byte or a renamed file changes the digest", async () => {
    const dir = await probeFolder();
    const before = (await bundleFolder(dir)).digest;
    await writeFile(join(dir, "index.js"), PROBE_CODE.replace('"one"', '"two"'));
    const edited = (await bundleFolder(dir)).digest;
    await writeFile(join(dir, "notes.md"), "a");
    const added = (await bundleFolder(dir)).digest;
    await rm(join(dir, "notes.md"));
    await writeFile(join(dir, "notes2.md"), "a");
    const renamed = (await bundleFolder(dir)).digest;
    expect(new Set([before, edited, added, renamed]).size).toBe(4);
  });

  it("leaves out .git, node_modules/.bin and node_modules/@oz0/sdk, and keeps the plugin's other dependencies", async () => {
    const dir = await probeFolder();
    await mkdir(join(dir, ".git"));
    await writeFile(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    await mkdir(join(dir, "node_modules", ".bin"), { recursive: true });
    await writeFile(join(dir, "node_modules", ".bin", "tool"), "#!/bin/sh\n");
    await mkdir(join(dir, "node_modules", "@oz0", "sdk"), { recursive: true });
    await writeFile(join(dir, "node_modules", "@oz0", "sdk", "package.json"), "{}");
    await mkdir(join(dir, "node_modules", "left-pad"), { recursive: true });
    await writeFile(join(dir, "node_modules", "left-pad", "index.js"), "export default 1;\n");
    const { files } = await bundleFolder(dir);
    expect(files.map((file) => file.path)).toEqual([
      "index.js",
      "node_modules/left-pad/index.js",
      "plugin.yaml",
    ]);
  });

  it("follows a link that stays inside the folder, keeping the file it leads to", async () => {
    const dir = await probeFolder();
    await mkdir(join(dir, "prompts"));
    await writeFile(join(dir, "prompts", "a.md"), "Hello.\n");
    await symlink(join(dir, "prompts", "a.md"), join(dir, "prompts", "b.md"));
    const { files } = await bundleFolder(dir);
    const b = files.find((file) => file.path === "prompts/b.md");
    expect(Buffer.from(b?.bytes ?? []).toString()).toBe("Hello.\n");
  });

  it("refuses a symlink that leads out of the folder, naming it and where it leads", async () => {
    const dir = await probeFolder();
    const outside = await temp("outside");
    await writeFile(join(outside, "secret.txt"), "hunter2");
    await symlink(join(outside, "secret.txt"), join(dir, "notes.txt"));
    const error = await refused(bundleFolder(dir));
    expect(error.message).toBe(
      `${dir}: notes.txt is a link that leads out of the plugin folder, to ${join(outside, "secret.txt")}; put the file itself inside the folder.`,
    );
    expect(error.data).toMatchObject({ detail: "link out of the folder", path: "notes.txt" });
  });

  it("refuses a folder link out of the folder too", async () => {
    const dir = await probeFolder();
    const outside = await temp("outside-dir");
    await symlink(outside, join(dir, "data"));
    const error = await refused(bundleFolder(dir));
    expect(error.message).toContain("data is a link that leads out of the plugin folder");
  });

  it("refuses an oversized file, naming the file and the limit", async () => {
    const dir = await probeFolder();
    await writeFile(join(dir, "big.bin"), Buffer.alloc(2048));
    const error = await refused(bundleFolder(dir, small({ maxFileBytes: 1024 })));
    expect(error.message).toBe(
      `${dir}: big.bin is 2048 bytes, over the bundle's limit of 1024 bytes per file (maxFileBytes); leave it out of the plugin folder or make it smaller.`,
    );
    expect(error.data).toMatchObject({ limit: "maxFileBytes", max: 1024, path: "big.bin" });
  });

  it("refuses a folder over the total size, and one with too many files, naming the limit", async () => {
    const dir = await probeFolder();
    for (const name of ["a", "b", "c"]) await writeFile(join(dir, `${name}.txt`), Buffer.alloc(600));
    const total = await refused(bundleFolder(dir, small({ maxTotalBytes: 1500 })));
    expect(total.message).toContain("more than the bundle's limit of 1500 bytes in all (maxTotalBytes)");
    const count = await refused(bundleFolder(dir, small({ maxFiles: 3 })));
    expect(count.message).toContain("more than the bundle's limit of 3 files (maxFiles)");
  });

  it("refuses a folder that is not a plugin", async () => {
    const dir = await temp("empty");
    const error = (await bundleFolder(dir).catch((thrown: unknown) => thrown)) as Oz0Error;
    expect(error.code).toBe("INVALID_PLUGIN");
    expect(error.message).toContain("has no plugin.yaml");
  });
});

describe("one archive", () => {
  it("round trip: pack then unpack gives back the same files and digest, and packs to the same bytes", async () => {
    const dir = await probeFolder();
    await mkdir(join(dir, "prompts"));
    await writeFile(join(dir, "prompts", "é.md"), "Accented.\n");
    const bundle = await bundleFolder(dir);
    const archive = await packBundle(bundle);
    expect(await packBundle(bundle)).toEqual(archive);
    const back = await unpackBundle(archive, { digest: bundle.digest });
    expect(back.digest).toBe(bundle.digest);
    expect(back.files.map((file) => [file.path, Buffer.from(file.bytes).toString()])).toEqual(
      bundle.files.map((file) => [file.path, Buffer.from(file.bytes).toString()]),
    );
  });

  it("accepts an archive made by tar itself, with ./ names and folder entries", async () => {
    const archive = await rawArchive([
      { header: { name: "./", type: "directory" } },
      { header: { name: "./plugin.yaml", type: "file" }, body: Buffer.from(PROBE_MANIFEST) },
      { header: { name: "./lib/", type: "directory" } },
      { header: { name: "./lib/x.js", type: "file" }, body: Buffer.from("1") },
    ]);
    const bundle = await unpackBundle(archive);
    expect(bundle.files.map((file) => file.path)).toEqual(["lib/x.js", "plugin.yaml"]);
  });

  it("refuses path-escape entries: .. and absolute paths", async () => {
    for (const name of ["../evil.js", "lib/../../evil.js", "/etc/passwd"]) {
      const archive = await rawArchive([{ header: { name, type: "file" }, body: Buffer.from("x") }]);
      const error = await refused(unpackBundle(archive, { name: "upload.tgz" }));
      expect(error.message).toMatch(
        new RegExp(`^upload\\.tgz: the entry '${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}' `),
      );
      expect(error.data).toMatchObject({ detail: "path not allowed" });
    }
  });

  it("refuses link entries: a symlink or hard link is never unpacked", async () => {
    for (const type of ["symlink", "link"] as const) {
      const archive = await rawArchive([{ header: { name: "secret", type, linkname: "/etc/passwd" } }]);
      const error = await refused(unpackBundle(archive));
      expect(error.message).toContain(`the entry secret is a ${type}, not a file`);
    }
  });

  it("refuses an oversized entry, naming it and the limit, and a gzip bomb past the total", async () => {
    const archive = await rawArchive([
      { header: { name: "big.bin", type: "file" }, body: Buffer.alloc(4096) },
    ]);
    const error = await refused(unpackBundle(archive, { limits: small({ maxFileBytes: 1024 }) }));
    expect(error.message).toContain("big.bin is 4096 bytes, over the bundle's limit of 1024 bytes per file");
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const blown = await refused(unpackBundle(bomb, { limits: small({ maxTotalBytes: 1024, maxFiles: 4 }) }));
    expect(blown.message).toContain("unpacks to more than the bundle's limit of 1024 bytes in all");
  });

  it("refuses an archive whose files do not make the digest it should hold", async () => {
    const bundle = await bundleFolder(await probeFolder());
    const other = await bundleFolder(
      await probeFolder().then(async (dir) => {
        await writeFile(join(dir, "extra.txt"), "x");
        return dir;
      }),
    );
    const error = await refused(unpackBundle(await packBundle(other), { digest: bundle.digest }));
    expect(error.message).toContain(`not ${bundle.digest} as it should; it was changed or damaged`);
  });

  it("refuses what is not a gzipped tar", async () => {
    const error = await refused(unpackBundle(Buffer.from("not an archive")));
    expect(error.message).toContain("is not a gzipped tar (.tgz)");
  });
});

describe("installed bundles", () => {
  it("installs from an archive with no folder at all, recording where it came from", async () => {
    const store = await openStore({ memory: true });
    const home = await temp("home");
    const catalog = new Catalog(store, home);
    const dir = await probeFolder();
    const archive = await packBundle(await bundleFolder(dir));
    await rm(dir, { recursive: true });
    const report = await catalog.install("uploads", await unpackBundle(archive), { source: "probe.tgz" });
    expect(report.dir).toBe("probe.tgz");
    const loaded = await catalog.loadInstalled("uploads", "probe");
    expect(loaded.code?.registrations("tool").map((tool) => tool.name)).toEqual(["probe"]);
    expect((await catalog.list("uploads"))[0]).toMatchObject({ dir: "probe.tgz", digest: report.digest });
    await store.close();
  });

  it("refuses code that imports what its folder does not hold, saying a bundle holds only the folder", async () => {
    const store = await openStore({ memory: true });
    const catalog = new Catalog(store, await temp("home"));
    const dir = await probeFolder();
    await writeFile(join(dir, "index.js"), `import "oz0-no-such-package";\n${PROBE_CODE}`);
    const error = await catalog.install("missing", dir).then(
      () => undefined,
      (thrown: unknown) => thrown as Oz0Error,
    );
    expect(error?.code).toBe("INVALID_PLUGIN");
    expect(error?.message).toContain("Cannot find package 'oz0-no-such-package'");
    expect(error?.message).toContain(`imported from ${dir}/index.js`);
    expect(error?.message).toContain(
      "The plugin runs from its bundle, which holds only the files inside its folder",
    );
    await store.close();
  });

  it("identical bundles are stored once, whichever tenants install them", async () => {
    const store = await openStore({ memory: true });
    const catalog = new Catalog(store, await temp("home"));
    const dir = await probeFolder();
    const a = await catalog.install("one", dir);
    const b = await catalog.install("two", dir);
    expect(b.digest).toBe(a.digest);
    const rows = await store.db.selectFrom("bundles").select("digest").execute();
    expect(rows.filter((row) => row.digest === a.digest)).toHaveLength(1);
    await store.close();
  });

  it("a plugin that imports @oz0/sdk, loaded from the cache under the home, gets the runtime's SDK", async () => {
    const store = await openStore({ memory: true });
    const home = await temp("home");
    const catalog = new Catalog(store, home);
    await catalog.install("sdk", await probeFolder());
    await catalog.loadInstalled("sdk", "probe");
    const probe = (globalThis as { __oz0BundleProbe?: { url: string; Oz0Error: unknown } }).__oz0BundleProbe;
    expect(probe?.url.startsWith(`file://${bundlesRoot(home)}/`)).toBe(true);
    expect(probe?.Oz0Error).toBe(Oz0Error);
    await store.close();
  });

  it("a bundle survives the deletion of its source folder: jobs still run, tools still load, in a later process", async () => {
    const home = await temp("runtime");
    const dir = await probeFolder();
    const first = await Runtime.open({ home, defaultPlugins: [] });
    const { digest } = await first.catalog.install("default", dir);
    await first.close();
    await rm(dir, { recursive: true });

    const later = await Runtime.open({ home, defaultPlugins: [] });
    try {
      const call = await later.tools.call("default", "probe/probe.where", {});
      expect(call.ok).toBe(true);
      expect(JSON.stringify(call.result)).toContain(join(bundlesRoot(home), String(digest)));
      const started = await later.jobs.start({ tenant: "default", agent: "probe/asker", input: "go" });
      const job = await later.jobs.run(started.id, { tenant: "default" });
      expect(job.status).toBe("succeeded");
      const events = await later.jobs.events(job.id, { tenant: "default" });
      expect(events.some((event) => event.kind === "tool_result" || event.kind === "tool_call")).toBe(true);
      expect(await readFile(join(bundlesRoot(home), String(digest), "plugin.yaml"), "utf8")).toBe(
        PROBE_MANIFEST,
      );
    } finally {
      await later.close();
    }
  });
});
