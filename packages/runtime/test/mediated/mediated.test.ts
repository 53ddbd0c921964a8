// The mediated tool runtime: a tool's files and processes stay inside the roots its call may
// use, whatever path it gives (`..`, a symbolic link, an absolute path, a hard link), and its
// processes are bounded (time, output) with a clean environment in a folder of its roots.
import { link, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOz0Error } from "@oz0/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mediatedRuntime, processIsolation, sandboxArgs } from "../../src/mediated/index.js";
import { toolContext } from "../../src/tools/index.js";

let base: string;
let agentRoot: string;
let toolRoot: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "oz0-mediated-")));
  agentRoot = join(base, "agent");
  toolRoot = join(base, "tool");
  outside = join(base, "outside");
  for (const folder of [agentRoot, toolRoot, outside]) await mkdir(folder);
  await writeFile(join(outside, "secret.txt"), "the secret");
  await writeFile(join(toolRoot, "manual.md"), "# the tool's own file");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const none = { mode: "none", reason: "tests" } as const;

function runtime() {
  return mediatedRuntime({ agentRoot, toolRoot, isolation: none });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isOz0Error(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("files", () => {
  it("reads and writes inside the agent's folder, relative paths from it", async () => {
    const tools = runtime();
    await tools.writeFile("notes/today.txt", "hello", { makeDirs: true });
    expect(await tools.readFile("notes/today.txt")).toBe("hello");
    await tools.writeFile("notes/today.txt", " again", { append: true });
    expect(await readFile(join(agentRoot, "notes", "today.txt"), "utf8")).toBe("hello again");
    const listed = await tools.listDir(".", { recursive: true });
    expect(listed.map((entry) => [entry.name, entry.type])).toEqual([
      ["notes", "directory"],
      ["today.txt", "file"],
    ]);
  });

  it("a read outside the roots fails: '..'", async () => {
    const refused = await refusal(runtime().readFile("../outside/secret.txt"));
    expect(refused.code).toBe("PATH_OUTSIDE_ROOTS");
    expect(refused.message).toContain("holds '..'");
  });

  it("a read outside the roots fails: an absolute path", async () => {
    const refused = await refusal(runtime().readFile(join(outside, "secret.txt")));
    expect(refused.code).toBe("PATH_OUTSIDE_ROOTS");
    expect(refused.message).toContain("is outside the tool's roots (agent, tool)");
  });

  it("a read outside the roots fails: a symbolic link that points out, to a file or a folder", async () => {
    await symlink(join(outside, "secret.txt"), join(agentRoot, "innocent.txt"));
    await symlink(outside, join(agentRoot, "folder"));
    const tools = runtime();
    const file = await refusal(tools.readFile("innocent.txt"));
    expect(file.code).toBe("PATH_OUTSIDE_ROOTS");
    expect(file.message).toContain(`it leads to ${join(outside, "secret.txt")}`);
    expect((await refusal(tools.readFile("folder/secret.txt"))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect((await refusal(tools.listDir("folder"))).code).toBe("PATH_OUTSIDE_ROOTS");
    // A listing names the link and never follows it.
    expect((await tools.listDir(".")).find((entry) => entry.name === "folder")?.type).toBe("symlink");
  });

  it("a write through a symbolic link out fails, and the file outside is left as it was", async () => {
    await symlink(join(outside, "secret.txt"), join(agentRoot, "innocent.txt"));
    await symlink(outside, join(agentRoot, "folder"));
    const tools = runtime();
    expect((await refusal(tools.writeFile("innocent.txt", "overwritten"))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect((await refusal(tools.writeFile("folder/new.txt", "x"))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect((await refusal(tools.writeFile("folder/deeper/new.txt", "x", { makeDirs: true }))).code).toBe(
      "PATH_OUTSIDE_ROOTS",
    );
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("the secret");
  });

  it("a file with another hard link is neither read nor written: its other name may be outside", async () => {
    await link(join(outside, "secret.txt"), join(agentRoot, "linked.txt"));
    const tools = runtime();
    const read = await refusal(tools.readFile("linked.txt"));
    expect(read.code).toBe("PATH_OUTSIDE_ROOTS");
    expect(read.message).toContain("has 2 hard links");
    expect((await refusal(tools.writeFile("linked.txt", "overwritten"))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("the secret");
  });

  it("the tool's own folder is read, never written", async () => {
    const tools = runtime();
    expect(await tools.readFile(join(toolRoot, "manual.md"))).toBe("# the tool's own file");
    const refused = await refusal(tools.writeFile(join(toolRoot, "manual.md"), "changed"));
    expect(refused.message).toContain("in the tool folder, which tools may read but not write");
  });

  it("a read larger than maxBytes is refused", async () => {
    const tools = runtime();
    await tools.writeFile("big.txt", "x".repeat(100));
    expect((await refusal(tools.readFile("big.txt", { maxBytes: 10 }))).code).toBe("LIMIT_EXCEEDED");
  });

  it("ToolContext's paths exist, and its runtime is the mediated one", async () => {
    const context = toolContext({ home: join(base, "home"), tenant: "default", pluginId: "p", agent: "a" });
    for (const folder of [context.paths.agentRoot, context.paths.userRoot, context.paths.toolsBinDir]) {
      await expect(realpath(folder)).resolves.toBeTruthy();
    }
    await context.runtime.writeFile("kept.txt", "ok");
    expect(await readFile(join(context.paths.agentRoot, "kept.txt"), "utf8")).toBe("ok");
    expect((await refusal(context.runtime.readFile(join(outside, "secret.txt")))).code).toBe(
      "PATH_OUTSIDE_ROOTS",
    );
  });

  it("ToolContext makes each folder as a tool reads its path, again if it was removed since, and none a tool never reads", async () => {
    const home = join(base, "home");
    const tenantRoot = join(home, "tenants", "default");
    const unread = toolContext({ home, tenant: "default", pluginId: "p", agent: "a" });
    expect(unread.paths.home).toBe(home);
    await expect(realpath(tenantRoot)).rejects.toMatchObject({ code: "ENOENT" });
    const agentRoot = unread.paths.agentRoot;
    expect(agentRoot).toBe(join(tenantRoot, "agents", "a"));
    await expect(realpath(agentRoot)).resolves.toBeTruthy();
    await expect(realpath(join(tenantRoot, "users"))).rejects.toMatchObject({ code: "ENOENT" });
    await rm(agentRoot, { recursive: true });
    const next = toolContext({ home, tenant: "default", pluginId: "p", agent: "a" });
    expect({ ...next.paths }).toEqual({
      home,
      userRoot: join(tenantRoot, "users", "local"),
      toolsBinDir: join(home, "bin"),
      agentRoot,
    });
    for (const folder of [next.paths.agentRoot, next.paths.userRoot, next.paths.toolsBinDir]) {
      await expect(realpath(folder)).resolves.toBeTruthy();
    }
  });

  it("ToolContext's runtime makes the agent's folder at its first use, the path never read", async () => {
    const context = toolContext({ home: join(base, "home"), tenant: "default", pluginId: "p", agent: "a" });
    await context.runtime.writeFile("kept.txt", "ok");
    expect(await readFile(join(base, "home", "tenants", "default", "agents", "a", "kept.txt"), "utf8")).toBe(
      "ok",
    );
  });
});

describe("processes", () => {
  it("run in a folder of the roots with a clean environment", async () => {
    process.env.OZ0_MEDIATED_TEST_SECRET = "leaked";
    try {
      const result = await runtime().exec(
        "sh",
        ["-c", 'pwd; echo "$HOME"; echo "[$OZ0_MEDIATED_TEST_SECRET]"; echo "$GIVEN"'],
        {
          env: { GIVEN: "given" },
        },
      );
      expect(result.exitCode).toBe(0);
      expect(result.stdout.split("\n").slice(0, 4)).toEqual([agentRoot, agentRoot, "[]", "given"]);
    } finally {
      delete process.env.OZ0_MEDIATED_TEST_SECRET;
    }
  });

  it("a working folder outside the roots is refused", async () => {
    expect((await refusal(runtime().exec("true", [], { cwd: outside }))).code).toBe("PATH_OUTSIDE_ROOTS");
  });

  it("are killed at their time limit, with what they started", async () => {
    const result = await runtime().exec("sh", ["-c", "sleep 30 & sleep 30; echo never"], { timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.stdout).toBe("");
  });

  it("keep at most maxOutputBytes of their output", async () => {
    const result = await runtime().exec("sh", ["-c", "yes | head -c 100000"], { maxOutputBytes: 1000 });
    expect(result.stdout.length).toBe(1000);
    expect(result.truncated).toBe(true);
  });
});

describe("isolation", () => {
  it("is detected and says why", () => {
    const isolation = processIsolation("auto");
    expect(["none", "bwrap"]).toContain(isolation.mode);
    expect(isolation.reason).toMatch(/bubblewrap/);
    expect(processIsolation("none")).toEqual({ mode: "none", reason: "OZ0_TOOL_ISOLATION=none" });
  });

  it("OZ0_TOOL_ISOLATION=bwrap gets bubblewrap where it works here, and is refused with why where it does not; another value is refused", () => {
    const detected = processIsolation("auto");
    if (detected.mode === "bwrap") {
      expect(processIsolation("bwrap")).toEqual(detected);
    } else {
      expect(() => processIsolation("bwrap")).toThrow(
        `OZ0_TOOL_ISOLATION=bwrap, and bubblewrap does not work here: ${detected.reason}`,
      );
    }
    let refused: unknown;
    try {
      processIsolation("jail");
    } catch (error) {
      refused = error;
    }
    expect(isOz0Error(refused) && refused.code).toBe("INVALID_INPUT");
    expect(String(refused)).toContain(
      "OZ0_TOOL_ISOLATION is 'jail': write auto (the default), none or bwrap",
    );
  });

  it("bubblewrap sees the roots, writable ones read-write, and no network", () => {
    const args = sandboxArgs(
      [
        { name: "agent", path: agentRoot, real: agentRoot, writable: true },
        { name: "tool", path: toolRoot, real: toolRoot, writable: false },
      ],
      agentRoot,
    );
    expect(args).toContain("--unshare-all");
    expect(args.join(" ")).toContain(`--bind ${agentRoot} ${agentRoot}`);
    expect(args.join(" ")).toContain(`--ro-bind ${toolRoot} ${toolRoot}`);
    expect(args.slice(-2)).toEqual(["--chdir", agentRoot]);
  });
});
