// A harness session's workspace is its agent's own, by tenant and address, and each job's skills
// are a folder of that job's: two plugins' agents of one name never share a workspace, and two
// jobs of one agent running at once never rewrite each other's skills.
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  harnessWorkspace,
  prepareWorkspace,
  releaseWorkspace,
  skillsFolder,
} from "../../../src/runtimes/harness/workspace.js";
import type { HarnessSetting } from "../../../src/runtimes/index.js";

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-harness-ws-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function setting(workspace: string, body: string): HarnessSetting {
  return {
    spec: { name: "mock", pluginId: "lab" } as unknown as HarnessSetting["spec"],
    options: {},
    workspace,
    skills: [{ label: "guide", body }],
    instructions: "",
    input: "",
    routine: false,
  };
}

describe("a harness session's workspace", () => {
  it("is the agent's by tenant and plugin: two plugins' agents of one name get two workspaces", () => {
    const first = harnessWorkspace(home, "acme", "alpha", "coder");
    const second = harnessWorkspace(home, "acme", "beta", "coder");
    const other = harnessWorkspace(home, "globex", "alpha", "coder");
    expect(new Set([first, second, other]).size).toBe(3);
    expect(second.startsWith(`${first}/`)).toBe(false);
  });

  it("holds each job's skills in a folder of that job's, which a concurrent job of the agent leaves alone", async () => {
    const workspace = harnessWorkspace(home, "acme", "alpha", "coder");
    const first = await prepareWorkspace(setting(workspace, "first job's guide"), "job-1");
    const second = await prepareWorkspace(setting(workspace, "second job's guide"), "job-2");
    expect(first).toBe(skillsFolder(workspace, "job-1"));
    expect(second).not.toBe(first);
    expect(await readFile(join(first!, "guide", "SKILL.md"), "utf8")).toBe("first job's guide");
    expect(await readFile(join(second!, "guide", "SKILL.md"), "utf8")).toBe("second job's guide");
    expect((await stat(first!)).mode & 0o777).toBe(0o555);
    // The first job's run ends: its folder goes, the second job's stays.
    await releaseWorkspace(setting(workspace, ""), "job-1");
    await expect(stat(first!)).rejects.toThrow();
    expect(await readFile(join(second!, "guide", "SKILL.md"), "utf8")).toBe("second job's guide");
  });
});
