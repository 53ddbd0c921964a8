// What a plugin's setup(host) throws reaches the caller with its own code when it is an Oz0Error,
// also one made by the plugin's own copy of the SDK (another class, known by its brand): only
// anything else is the plugin's fault, INVALID_PLUGIN.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { loadPluginDir } from "../../src/plugin-dir/index.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A plugin folder whose code entry's setup runs `body`. */
async function pluginWhoseSetup(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-setup-"));
  made.push(dir);
  await writeFile(
    join(dir, "plugin.yaml"),
    "name: setup-thrower\nversion: 1.0.0\ndescription: Throws in setup.\nmain: index.js\n",
  );
  await writeFile(join(dir, "index.js"), `export default { setup() { ${body} } };\n`);
  return dir;
}

async function thrownBy(dir: string): Promise<unknown> {
  return loadPluginDir(dir).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("an error thrown in a plugin's setup(host)", () => {
  it("keeps its code when the plugin's own copy of the SDK made it", async () => {
    // What another copy's Oz0Error looks like here: another class, the same name and brand.
    const dir = await pluginWhoseSetup(
      'const error = new Error("set a token first: oz0 plugin config setup-thrower --set ..."); ' +
        'error.name = "Oz0Error"; error[Symbol.for("oz0.error")] = true; error.code = "INVALID_INPUT"; throw error;',
    );
    const error = await thrownBy(dir);
    expect(isOz0Error(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toBe("set a token first: oz0 plugin config setup-thrower --set ...");
  });

  it("is the plugin's fault, INVALID_PLUGIN, when it is any other error", async () => {
    const error = await thrownBy(await pluginWhoseSetup('throw new Error("boom");'));
    expect(isOz0Error(error, "INVALID_PLUGIN")).toBe(true);
    expect((error as Error).message).toContain("threw: boom");
  });
});
