import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LintOutput } from "../src/commands/plugin-lint.js";
import { oz0, tempHome } from "./run-cli.js";

const FIXTURES = join(import.meta.dirname, "../../runtime/test/fixtures/lint");
const temporary: string[] = [];

afterEach(async () => {
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oz0-lint-cli-"));
  temporary.push(dir);
  return dir;
}

/** A copy of a lint fixture, since lint writes tools.listing.json and --fix rewrites files. */
async function copyFixture(...parts: string[]): Promise<string> {
  const dir = join(await tempDir(), "plugin");
  await cp(join(FIXTURES, ...parts), dir, { recursive: true });
  return dir;
}

describe("oz0 plugin lint", () => {
  it("prints each finding as file:line:col severity CODE message, then the count, and exits 1 on an error", async () => {
    const dir = await copyFixture("oz-s002", "triggers");
    const result = await oz0(["plugin", "lint", dir]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "plugin.yaml:7:19 error OZ-S002 instructions 'prompts/missing.md' does not exist in the plugin folder; create it, or fix the path",
        "plugin.yaml:9:20 error OZ-S002 output_schema 'schemas/answer.json' does not exist in the plugin folder; create it, or fix the path",
        "2 errors, 0 warnings",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(1);
  });

  it("lints a Claude Code plugin folder, reporting what oz0 cannot honour as OZ-S030", async () => {
    const dir = await copyFixture("oz-s030", "triggers");
    const result = await oz0(["plugin", "lint", dir]);
    expect(result.stdout).toMatch(/^hooks:1:1 error OZ-S030 runs shell commands on Claude Code events/m);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("3 errors, 0 warnings");
    expect(result.code).toBe(1);
  });

  it("installs a Claude Code plugin's slash command as an agent that oz0 run runs with its arguments", async () => {
    const dir = join(await tempDir(), "tutor");
    await mkdir(join(dir, ".claude-plugin"), { recursive: true });
    await mkdir(join(dir, "commands"));
    await writeFile(join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "tutor" }));
    await writeFile(
      join(dir, "commands/explain.md"),
      "---\ndescription: Explain a proof.\nargument-hint: <theorem>\n---\nExplain $ARGUMENTS simply.\n",
    );
    const { home, cleanup } = await tempHome();
    temporary.push(home);
    try {
      expect((await oz0(["plugin", "install", dir, "--home", home])).code).toBe(0);
      const catalog = await oz0(["catalog", "--home", home]);
      expect(catalog.stdout).toContain("tutor/explain");
      expect(catalog.stdout).toContain("Explain a proof. Arguments: <theorem>");
      const ran = await oz0(["run", "tutor/explain", "the pigeonhole principle", "--json", "--home", home]);
      expect(ran.code).toBe(0);
      const job = ran.json<{ id: string; status: string }>();
      expect(job.status).toBe("succeeded");
      const trace = await oz0(["job", "trace", job.id, "--json", "--home", home]);
      const events = trace.json<{ kind: string; data: Record<string, unknown> }[]>();
      const context = events.find((entry) => entry.kind === "context_assembled")?.data;
      expect(context?.system).toContain("Explain the arguments the person gave (the user message) simply.");
      expect(events[0]?.data.input).toBe("the pigeonhole principle");
    } finally {
      await cleanup();
    }
  });

  it("exits 0 when there are only warnings", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const result = await oz0(["plugin", "lint", dir]);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("0 errors, 2 warnings");
  });

  it("prints { findings, summary } with --json", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const result = await oz0(["plugin", "lint", dir, "--json"]);
    expect(result.code).toBe(0);
    const output = result.json<LintOutput>();
    expect(output.summary).toEqual({ errors: 0, warnings: 2, fixed: 0 });
    expect(output.findings[0]).toEqual({
      file: "plugin.yaml",
      line: 11,
      column: 9,
      severity: "warning",
      code: "OZ-S019",
      message:
        "'oz0_github.list_pull_requests' is github's function, named bare; write its address github/oz0_github.list_pull_requests (oz0 plugin lint --fix writes it)",
      fixable: true,
    });
  });

  it("makes a bare name of another plugin's part an error with --verified", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const result = await oz0(["plugin", "lint", dir, "--verified"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("plugin.yaml:11:9 error OZ-S019 ");
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("2 errors, 0 warnings");
  });

  it("rewrites bare names to addresses with --fix, keeping the comments", async () => {
    const dir = await copyFixture("oz-s019", "triggers");
    const result = await oz0(["plugin", "lint", dir, "--fix"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("0 errors, 0 warnings (2 problems fixed)\n");
    expect(await readFile(join(dir, "plugin.yaml"), "utf8")).toBe(
      await readFile(join(FIXTURES, "oz-s019", "passes", "plugin.yaml"), "utf8"),
    );
  });

  it("writes the plugin's tools.listing.json", async () => {
    const dir = await copyFixture("oz-s007", "passes");
    const result = await oz0(["plugin", "lint", dir]);
    expect(result.stdout).toBe("0 errors, 0 warnings\n");
    const listing = JSON.parse(await readFile(join(dir, "tools.listing.json"), "utf8"));
    expect(listing.functions.map((fn: { name: string }) => fn.name)).toEqual(["reports__summary"]);
  });

  it("refuses a folder that is not a plugin folder", async () => {
    const result = await oz0(["plugin", "lint", "/nonexistent-plugin-folder"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: \/nonexistent-plugin-folder is not a plugin folder/);
  });

  it("knows other plugins' parts from the tenant selected with --home", async () => {
    const { home, cleanup } = await tempHome();
    try {
      const github = join(await tempDir(), "github");
      await mkdir(join(github, "prompts"), { recursive: true });
      await writeFile(
        join(github, "plugin.yaml"),
        [
          "name: github",
          "version: 1.2.0",
          "main: index.js",
          "capabilities: [tool]",
          "tools:",
          "  - id: oz0_github",
          "agents:",
          "  - name: oz0-github",
          "    instructions: prompts/github.md",
          "    input: text",
          "    output: text",
          "",
        ].join("\n"),
      );
      await writeFile(join(github, "prompts", "github.md"), "You work with GitHub.\n");
      await writeFile(
        join(github, "index.js"),
        `export default { setup(host) { host.addTool({ name: "oz0_github", description: "GitHub.", build: () => ({ functions: [
          { name: "get_file", description: "Reads a file.", input: { type: "object", properties: {} }, run: async () => "" },
        ] }) }); } };\n`,
      );
      const installed = await oz0(["plugin", "install", github, "--home", home]);
      expect(installed.stderr).toBe("");

      const dir = await copyFixture("oz-s001", "passes");
      const manifest = join(dir, "plugin.yaml");
      await writeFile(manifest, `${await readFile(manifest, "utf8")}    tools: [oz0_github.get_file]\n`);

      const alone = await oz0(["plugin", "lint", dir]);
      expect(alone.stdout).toBe("0 errors, 0 warnings\n");
      const against = await oz0(["plugin", "lint", dir, "--home", home]);
      expect(against.stdout.split("\n").slice(0, 2)).toEqual([
        "plugin.yaml:10:13 warning OZ-S019 'oz0_github.get_file' is github's function, named bare; write its address github/oz0_github.get_file (oz0 plugin lint --fix writes it)",
        "plugin.yaml:10:13 warning OZ-S020 tools names github/oz0_github.get_file, but uses: does not list plugin 'github'; add it under uses: with tools: [oz0_github.get_file]: github must be installed, and a job's call of it is refused (NOT_GRANTED) until uses: grants it",
      ]);
    } finally {
      await cleanup();
    }
  });

  it("lints an update against the installed version with --home, as the update is refused (OZ-S022, BREAKING_CHANGE)", async () => {
    const { home, cleanup } = await tempHome();
    try {
      const installed = await copyFixture("oz-s022", "triggers");
      const manifest = join(installed, "plugin.yaml");
      const update = await readFile(manifest, "utf8");
      // Installed: sorting 1.2.0, whose sorter declares no_queue only, and not as retryable.
      await writeFile(
        manifest,
        update
          .replace("version: 1.3.0", "version: 1.2.0")
          .replace("        retryable: true\n", "")
          .replace(/ {6}- kind: queue_full\n.*\n/, ""),
      );
      expect((await oz0(["plugin", "install", installed, "--home", home])).code).toBe(0);
      const dir = await copyFixture("oz-s022", "triggers");

      const linted = await oz0(["plugin", "lint", dir, "--home", home]);
      expect(linted.code).toBe(1);
      const lines = linted.stdout.split("\n");
      expect(lines.slice(0, 2).map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
        "plugin.yaml:14:20 error OZ-S022",
        "plugin.yaml:15:15 error OZ-S022",
      ]);
      expect(lines[2]).toBe("2 errors, 0 warnings");
      const refused = await oz0(["plugin", "update", dir, "--home", home]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("  - agent sorting/sorter adds the failure kind queue_full\n");
      const forced = await oz0([
        "plugin",
        "update",
        dir,
        "--home",
        home,
        "--force",
        "--reason",
        "nobody calls it yet",
      ]);
      expect(forced.stdout).toContain(
        "forced: nobody calls it yet\n  agent sorting/sorter: retryable turned on for no_queue\n  agent sorting/sorter: new failure kind queue_full",
      );
    } finally {
      await cleanup();
    }
  });

  it("reports what an install in the tenant selected with --home would refuse, in install's words", async () => {
    const { home, cleanup } = await tempHome();
    try {
      const dir = await copyFixture("oz-s001", "passes");
      const manifest = join(dir, "plugin.yaml");
      await writeFile(manifest, `${await readFile(manifest, "utf8")}    tools: [nothing.here]\n`);
      const alone = await oz0(["plugin", "lint", dir]);
      expect(alone.stdout).toBe("0 errors, 0 warnings\n");
      const against = await oz0(["plugin", "lint", dir, "--home", home]);
      const problem =
        "agent helper (plugin.yaml) tools nothing.here: no plugin in tenant default defines a function nothing.here";
      expect(against.stdout).toBe(`plugin.yaml:10:13 error OZ-S026 ${problem}\n1 error, 0 warnings\n`);
      const installed = await oz0(["plugin", "install", dir, "--home", home]);
      expect(installed.stderr).toContain(`  - ${problem}\n`);
    } finally {
      await cleanup();
    }
  });
});
