// Plugin bundles from the command line: `oz0 plugin pack` writes one archive, `oz0 plugin
// install <file.tgz>` installs from it, and the plugin runs from its bundle under the home with
// its folder and archive gone, in this process and in a new one that resolves the bundle's
// `@oz0/sdk` import with Node's own resolver.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ChangeReport, PluginDetail } from "@oz0/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const MAIN = join(import.meta.dirname, "../src/main.ts");
/** The SDK the runtime itself loads from its sources under the tests' @oz0/source condition. */
const SDK_SOURCE = join(import.meta.dirname, "../../sdk/src/index.ts");
const RESOLVE_TS = join(import.meta.dirname, "../../runtime/test/store/fixtures/resolve-ts.ts");

const made: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(made.map((cleanup) => cleanup())));

/** A plugin whose code imports @oz0/sdk and answers whether its Oz0Error is the runtime's. */
async function sdkPlugin(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "oz0-cli-bundle-"));
  made.push(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, "sdk-user");
  await mkdir(dir);
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: sdk-user\nversion: 1.0.0\ndescription: Imports the SDK.\nmain: index.js\ncapabilities: [tool]\n" +
      "tools:\n  - id: sdkcheck\n    description: Checks the SDK it got.\n",
  );
  await writeFile(
    join(dir, "index.js"),
    `import { definePlugin, isOz0Error, Oz0Error } from "@oz0/sdk";
export default definePlugin({
  setup(host) {
    host.addTool({
      name: "sdkcheck",
      description: "Checks the SDK it got.",
      build: () => ({
        functions: [{
          name: "where",
          description: "Where this module and the SDK were loaded from.",
          input: { type: "object", properties: {} },
          run: async () => ({
            module: import.meta.url,
            sdk: isOz0Error(new Oz0Error("INTERNAL", "x")),
            sdkUrl: typeof import.meta.resolve === "function" ? import.meta.resolve("@oz0/sdk") : null,
          }),
        }],
      }),
    });
  },
});
`,
  );
  return dir;
}

describe("oz0 plugin pack and install <file.tgz>", () => {
  it("packs a folder into an archive that install takes, and the plugin runs with folder and archive gone", async () => {
    const { home, cleanup } = await tempHome();
    made.push(cleanup);
    const dir = await sdkPlugin();
    const archive = join(home, "..", `${Math.random().toString(36).slice(2)}-sdk-user.tgz`);
    made.push(() => rm(archive, { force: true }));

    const packed = await oz0(["plugin", "pack", dir, "-o", archive, "--json", "--home", home]);
    expect(packed.stderr).toBe("");
    const { digest, files } = packed.json<{ digest: string; files: number }>();
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(files).toBe(2);

    const installed = await oz0(["plugin", "install", archive, "--json", "--home", home]);
    expect(installed.stderr).toBe("");
    expect(installed.json<ChangeReport>()).toMatchObject({ plugin: "sdk-user", digest });
    await rm(dir, { recursive: true });
    await rm(archive);

    const inspect = await oz0(["plugin", "inspect", "sdk-user", "--home", home]);
    expect(inspect.stdout).toContain(`\nbundle: ${digest}\n`);
    const detail = (
      await oz0(["plugin", "inspect", "sdk-user", "--json", "--home", home])
    ).json<PluginDetail>();
    expect(detail.digest).toBe(digest);

    const call = await oz0([
      "tool",
      "call",
      "sdk-user/sdkcheck.where",
      "--args",
      "{}",
      "--json",
      "--home",
      home,
    ]);
    expect(call.stderr).toBe("");
    const where = new RegExp(`^file://${join(home, "bundles")}/[0-9a-f]{12}/${digest}/index\\.js`);
    expect(call.json<{ result: { module: string } }>().result.module).toMatch(where);

    // A new process, with Node's own module resolution: the bundle's @oz0/sdk is the runtime's.
    const child = spawnSync(
      process.execPath,
      [
        "--conditions=@oz0/source",
        "--import",
        RESOLVE_TS,
        MAIN,
        "tool",
        "call",
        "sdk-user/sdkcheck.where",
        "--args",
        "{}",
        "--json",
        "--home",
        home,
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const result = (JSON.parse(child.stdout) as { result: { module: string; sdk: boolean; sdkUrl: string } })
      .result;
    expect(result.sdk).toBe(true);
    expect(result.sdkUrl).toBe(pathToFileURL(await realpath(SDK_SOURCE)).href);
    expect(result.module).toMatch(where);
  });

  it("refuses an archive that is not one, saying how to make one", async () => {
    const { home, cleanup } = await tempHome();
    made.push(cleanup);
    const file = join(home, "not-a-plugin.tgz");
    await writeFile(file, "plain text");
    const result = await oz0(["plugin", "install", file, "--home", home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file} is not a gzipped tar (.tgz)`);
    expect(result.stderr).toContain("oz0 plugin pack <dir>");
  });
});
