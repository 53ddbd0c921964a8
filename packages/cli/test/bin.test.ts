// The command npm links (node_modules/.bin/oz0, npx oz0) is a file of the repository, so the
// link exists from `npm ci` on, on every fresh clone: a bin under dist/ does not exist when
// npm links it, and npm then links nothing.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HelpPages, helpPages } from "../src/help-pages.js";
import { tempHome } from "./run-cli.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

async function binPath(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(PACKAGE, "package.json"), "utf8")) as {
    bin: { oz0: string };
    files: string[];
  };
  expect(manifest.files).toContain(manifest.bin.oz0.replace(/^\.\//, "").split("/")[0]);
  return manifest.bin.oz0;
}

describe("the oz0 bin", () => {
  it("is an executable file of the repository, not of the build", async () => {
    const bin = await binPath();
    expect(bin).not.toMatch(/^(\.\/)?dist\//);
    const tracked = execFileSync("git", ["ls-files", "--stage", "--", bin], {
      cwd: PACKAGE,
      encoding: "utf8",
    });
    expect(tracked).toMatch(/^100755 /);
    expect((await stat(join(PACKAGE, bin))).mode & 0o111).not.toBe(0);
  });

  it("says to build oz0 when its dist/ is not there yet", async () => {
    const bin = await binPath();
    const copy = join(home, "cli", bin);
    await mkdir(join(copy, ".."), { recursive: true });
    await copyFile(join(PACKAGE, bin), copy);
    const result = spawnSync(process.execPath, [copy, "--version"], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "oz0 is not built yet: run npm run build in the oz0 workspace, then try again.\n",
    );
  });

  it("prints its version loading no module but itself", async () => {
    const loaded = modulesLoaded(await binPath(), ["--version"]);
    expect(loaded.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(loaded.modules).toEqual([join(PACKAGE, await binPath())]);
  });

  it("prints its help loading no module but itself, from the pages the build stored", async () => {
    const bin = await binPath();
    for (const args of [["--help"], ["job", "search", "--help"], ["help", "job"], ["worker", "-h"], []]) {
      const loaded = modulesLoaded(bin, args, args.length === 0 ? 1 : 0);
      expect(args.length === 0 ? loaded.stderr : loaded.stdout).toMatch(/^Usage: oz0/);
      expect(loaded.modules, `oz0 ${args.join(" ")}`).toEqual([join(PACKAGE, bin)]);
    }
  });

  it("stores the help pages commander renders from the command tree, for every command", async () => {
    const stored = JSON.parse(await readFile(join(PACKAGE, "dist", "help.json"), "utf8")) as HelpPages;
    // Rendered in another environment than the build's: a page must not depend on it.
    const saved = { ...process.env };
    Object.assign(process.env, { HOME: join(home, "elsewhere"), OZ0_HOME: join(home, "oz0"), COLUMNS: "40" });
    Object.assign(process.env, { OZ0_SERVER: "http://127.0.0.1:9", FORCE_COLOR: "1" });
    let live: HelpPages;
    try {
      live = await helpPages();
    } finally {
      for (const key of ["HOME", "OZ0_HOME", "COLUMNS", "OZ0_SERVER", "FORCE_COLOR"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
    expect(stored, "dist/help.json is not the command tree's help: run npm run build").toEqual(live);
    // Every command under each of its names, with --help and -h.
    for (const words of [[], ["job", "search"], ["node", "pool"], ["worker", "pool"], ["provider", "set"]]) {
      for (const flag of ["--help", "-h"])
        expect(Object.keys(live.lines)).toContain([...words, flag].join("\0"));
    }
    // A command that runs an action, its arguments or options are not help, and go to commander.
    for (const words of [["run"], ["job", "search"], ["--help", "--json"], ["job", "--help", "x"]]) {
      expect(Object.keys(live.lines)).not.toContain(words.join("\0"));
    }
  });

  it("runs any other command line through the command line bundled with commander in one file and its chunks", async () => {
    // A refusal of the command line, which loads the SDK's errors alone to say it.
    const bin = await binPath();
    const loaded = modulesLoaded(bin, ["job", "search", "--limit", "abc", "--home", home], 1);
    expect(loaded.stderr).toMatch(/--limit abc/);
    const files = loaded.modules.map((file) => relative(PACKAGE, file));
    expect(files.slice(0, 2)).toEqual([bin.replace(/^\.\//, ""), "dist/oz0.js"]);
    expect(files.slice(2).filter((file) => !file.startsWith("dist/chunks/"))).toEqual([
      "../sdk/dist/bundle/errors.js",
      expect.stringMatching(/^\.\.\/sdk\/dist\/bundle\/chunks\/errors-[\w-]+\.js$/),
    ]);
  });

  it("runs a job loading none of the runtime's subsystems the job does not use", async () => {
    const bin = await binPath();
    const triage = fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));
    for (const args of [
      ["plugin", "install", triage],
      ["policy", "allow", "support-triage/tickets.*"],
    ]) {
      expect(spawnSync(process.execPath, [join(PACKAGE, bin), ...args, "--home", home]).status).toBe(0);
    }
    for (const args of [
      ["plugin", "list", "--home", home],
      ["run", "support-triage/triage", "Ticket 7: charged twice", "--home", home, "--json"],
    ]) {
      const loaded = modulesLoaded(bin, args);
      const packages = new Set(loaded.modules.map(packageOf).filter((name) => name !== undefined));
      // Each loads when it is first used: a connection to an MCP server, oz0 mcp serve or oz0
      // serve, an OTLP endpoint, a job of those runtimes, a model of that provider, an archive
      // packed or unpacked, a password hashed or checked.
      for (const unused of [
        "@modelcontextprotocol/sdk",
        "zod-to-json-schema",
        "hono",
        "@hono/node-server",
        "cross-spawn",
        "@opentelemetry/sdk-trace",
        "@opentelemetry/exporter-trace-otlp-http",
        "@opentelemetry/exporter-trace-otlp-proto",
        "@a2a-js/sdk",
        "@agentclientprotocol/sdk",
        "@openai/agents-core",
        "ai",
        "@ai-sdk/anthropic",
        "@ai-sdk/openai",
        "@ai-sdk/openai-compatible",
        "tar-stream",
        "@node-rs/argon2",
      ]) {
        expect(packages, `${args.slice(0, 2).join(" ")} loads ${unused}`).not.toContain(unused);
      }
      // The runtime and the libraries it runs on are in the CLI's bundle (a few files where they
      // were 880), and the SDK with zod, yaml and semver in its own (a few where they were 240):
      // what loads besides is the AI SDK's provider types and the plugin's own code.
      const files = loaded.modules.map((file) => relative(PACKAGE, file));
      expect(files.filter((file) => file.startsWith("../runtime/") || file.startsWith("../server/"))).toEqual(
        [],
      );
      expect(files.filter((file) => file.startsWith("dist/")).length).toBeLessThanOrEqual(12);
      const sdk = files.filter((file) => file.startsWith("../sdk/"));
      expect(sdk.filter((file) => !file.startsWith("../sdk/dist/bundle/"))).toEqual([]);
      expect(sdk.length).toBeLessThanOrEqual(6);
      expect(loaded.modules.filter((file) => packageOf(file) !== undefined).map(packageOf)).toEqual([
        "@ai-sdk/provider",
      ]);
      expect(
        loaded.modules.length,
        `${args.slice(0, 2).join(" ")} loads ${loaded.modules.length} files`,
      ).toBeLessThanOrEqual(20);
    }
  });

  it("gives the runtime and a plugin the same SDK, its bundle, or its compiled modules when they are newer", async () => {
    const bin = await binPath();
    const dir = join(home, "sdk-user");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "plugin.yaml"),
      "name: sdk-user\nversion: 1.0.0\ndescription: Imports the SDK.\nmain: index.js\ncapabilities: [tool]\n" +
        "tools:\n  - id: sdkcheck\n    description: Says where its SDK is.\n",
    );
    await writeFile(
      join(dir, "index.js"),
      `import { definePlugin } from "@oz0/sdk";
export default definePlugin({
  setup(host) {
    host.addTool({
      name: "sdkcheck",
      description: "Says where its SDK is.",
      build: () => ({
        functions: [{
          name: "where",
          description: "The module the plugin's @oz0/sdk is.",
          input: { type: "object", properties: {} },
          run: async () => ({ sdk: import.meta.resolve("@oz0/sdk") }),
        }],
      }),
    });
  },
});
`,
    );
    expect(
      spawnSync(process.execPath, [join(PACKAGE, bin), "plugin", "install", dir, "--home", home]).status,
    ).toBe(0);
    const call = ["tool", "call", "sdk-user/sdkcheck.where", "--args", "{}", "--json", "--home", home];
    /** The plugin's SDK, and the SDK's files the process loaded (the runtime's with the plugin's). */
    const sdkOf = (loaded: ReturnType<typeof modulesLoaded>) => ({
      plugin: relative(
        PACKAGE,
        fileURLToPath((JSON.parse(loaded.stdout) as { result: { sdk: string } }).result.sdk),
      ),
      loaded: loaded.modules
        .map((file) => relative(PACKAGE, file))
        .filter((file) => file.startsWith("../sdk/")),
    });

    const bundled = sdkOf(modulesLoaded(bin, call));
    expect(bundled.plugin).toBe("../sdk/dist/bundle/index.js");
    expect(bundled.loaded).toContain("../sdk/dist/bundle/index.js");
    expect(bundled.loaded.filter((file) => !file.startsWith("../sdk/dist/bundle/"))).toEqual([]);

    // A compile of the SDK alone after its bundle: the compiled modules, for both.
    const record = join(PACKAGE, "../sdk/tsconfig.tsbuildinfo");
    const { atime, mtime } = await stat(record);
    const later = new Date((await stat(join(PACKAGE, "../sdk/dist/bundle/index.js"))).mtimeMs + 60_000);
    await utimes(record, later, later);
    try {
      const compiled = sdkOf(modulesLoaded(bin, call));
      expect(compiled.plugin).toBe("../sdk/dist/index.js");
      expect(compiled.loaded).toContain("../sdk/dist/index.js");
      expect(compiled.loaded.filter((file) => file.startsWith("../sdk/dist/bundle/"))).toEqual([]);
    } finally {
      await utimes(record, atime, mtime);
    }
  });

  it("keeps compiled code in the user's own cache folder, and none when told not to", async () => {
    const bin = join(PACKAGE, await binPath());
    const cache = join(home, "xdg-cache");
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    // A command line the command tree reads (stored help pages load no module to cache).
    const refused = [bin, "job", "search", "--limit", "abc"];
    const off = spawnSync(process.execPath, refused, { env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" } });
    expect(off.status).toBe(1);
    await expect(stat(join(cache, "oz0"))).rejects.toThrow();
    const on = spawnSync(process.execPath, refused, { env });
    expect(on.status).toBe(1);
    const [version] = await readdir(join(cache, "oz0", "node-compile-cache"));
    expect((await readdir(join(cache, "oz0", "node-compile-cache", version!))).length).toBeGreaterThan(0);
  });

  it("keeps a job's tool validators with the compiled code, and none when told not to", async () => {
    const bin = join(PACKAGE, await binPath());
    const triage = fileURLToPath(new URL("../../../examples/support-triage", import.meta.url));
    const jobHome = join(home, "validators");
    const cache = join(home, "validators-cache");
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    for (const args of [
      ["plugin", "install", triage],
      ["policy", "allow", "support-triage/tickets.*"],
    ]) {
      expect(spawnSync(process.execPath, [bin, ...args, "--home", jobHome], { env }).status).toBe(0);
    }
    const run = [bin, "run", "support-triage/triage", "Ticket 7: charged twice", "--home", jobHome, "--json"];
    const kept = async () => {
      const folder = join(cache, "oz0", "node-compile-cache");
      const versions = await readdir(folder).catch(() => []);
      const files = await Promise.all(
        versions.map((version) => readdir(join(folder, version, "oz0-schema-validators")).catch(() => [])),
      );
      return files.flat().filter((file) => file.endsWith(".json"));
    };
    await rm(cache, { recursive: true, force: true });
    expect(
      spawnSync(process.execPath, run, { env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" } }).status,
    ).toBe(0);
    expect(await kept()).toEqual([]);
    const first = spawnSync(process.execPath, run, { env, encoding: "utf8" });
    expect(first.status).toBe(0);
    // One for each function the job called: tickets.lookup and tickets.assign.
    expect(await kept()).toHaveLength(2);
    const second = spawnSync(process.execPath, run, { env, encoding: "utf8" });
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout).output).toBe(JSON.parse(first.stdout).output);
  });
});

/** The npm package a module file belongs to (`@scope/name` or `name`), if it is one of node_modules'. */
function packageOf(file: string): string | undefined {
  return /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/** Runs the built bin with `args`, and gives what it printed and every module file it loaded. */
function modulesLoaded(
  bin: string,
  args: string[],
  status = 0,
): { stdout: string; stderr: string; modules: string[] } {
  const result = spawnSync(
    process.execPath,
    ["--import", new URL("./fixtures/loaded-modules.mjs", import.meta.url).href, join(PACKAGE, bin), ...args],
    { encoding: "utf8", env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" } },
  );
  expect(result.status).toBe(status);
  const listed = result.stderr.slice(result.stderr.lastIndexOf("loaded:\n") + "loaded:\n".length);
  return {
    stdout: result.stdout,
    stderr: result.stderr.slice(0, result.stderr.lastIndexOf("loaded:\n")),
    modules: listed
      .split("\n")
      .filter((line) => line !== "")
      .map((url) => fileURLToPath(url)),
  };
}
