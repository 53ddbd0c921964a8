import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

describe("oz0 init", () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ home, cleanup } = await tempHome());
  });
  afterEach(() => cleanup());

  it("scaffolds a plugin that lints clean, installs, and runs its agent on the offline model", async () => {
    const dir = join(home, "notes-keeper");
    const init = await oz0(["init", dir]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("created plugin notes-keeper");

    const lint = await oz0(["plugin", "lint", dir, "--json"]);
    expect(lint.code).toBe(0);
    expect(lint.json<{ findings: unknown[] }>().findings).toEqual([]);

    expect((await oz0(["--home", home, "plugin", "install", dir])).code).toBe(0);
    const run = await oz0([
      "--home",
      home,
      "--json",
      "run",
      "notes-keeper/assistant",
      "remember to buy milk",
    ]);
    expect(run.json()).toMatchObject({ status: "succeeded", output: "You have 1 note.", failure: null });
    expect(run.code).toBe(0);
  });

  it("names the plugin after --name instead of the folder", async () => {
    const dir = join(home, "folder");
    expect((await oz0(["init", dir, "--name", "my-notes"])).code).toBe(0);
    expect(await readFile(join(dir, "plugin.yaml"), "utf8")).toMatch(/^name: my-notes$/m);
  });

  it("refuses a folder that is not empty, and leaves its files as they were", async () => {
    const dir = join(home, "busy");
    await mkdir(dir);
    await writeFile(join(dir, "plugin.yaml"), "name: mine\n");
    const result = await oz0(["init", dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not empty");
    expect(await readFile(join(dir, "plugin.yaml"), "utf8")).toBe("name: mine\n");
  });

  it("refuses a folder name that is not a valid plugin name, saying the rule", async () => {
    const result = await oz0(["init", join(home, "Bad_Name")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "plugin name 'Bad_Name' must be lowercase letters, digits and single dashes",
    );
    // The folder made for it is taken away again.
    await expect(access(join(home, "Bad_Name"))).rejects.toThrow();
  });

  it("fails at once for a folder that cannot be made, such as one under /proc", async () => {
    const result = await oz0(["init", "/proc/oz0-plugin", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: "INVALID_INPUT",
        message:
          "oz0 init /proc/oz0-plugin: oz0 cannot make the folder /proc/oz0-plugin (ENOENT: no such file or directory, mkdir '/proc/oz0-plugin'); give a folder oz0 may create and write to",
        data: { issues: [{ path: "dir", message: "not a folder oz0 can create" }] },
        side: "user",
        status: 422,
        retryable: false,
      },
    });
  });

  it("fails at once for a --home that cannot be made, such as one under /proc", async () => {
    const result = await oz0(["plugin", "list", "--home", "/proc/oz0-home"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: --home /proc/oz0-home: oz0 cannot make the folder /proc/oz0-home (ENOENT: no such file or directory, mkdir '/proc/oz0-home'); give a folder oz0 may create and write to\n",
    );
  });
});

describe("oz0 --version", () => {
  it("prints the version of the oz0 package", async () => {
    const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    const result = await oz0(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });
});
