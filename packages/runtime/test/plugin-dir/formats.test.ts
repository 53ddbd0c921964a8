import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { JobEngine } from "../../src/jobs/index.js";
import { lintPlugin } from "../../src/lint/index.js";
import { loadPluginDir } from "../../src/plugin-dir/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { ofKind, scripted } from "../jobs/helpers.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";

// Vendored, unchanged, with their licences (Apache 2.0): anthropics/claude-plugins-official's
// math-olympiad plugin, and anthropics/skills' internal-comms and webapp-testing skills.
const FIXTURES = join(import.meta.dirname, "../fixtures/formats");
const CLAUDE_CODE = join(FIXTURES, "math-olympiad");
const INTERNAL_COMMS = join(FIXTURES, "internal-comms");
const WEBAPP_TESTING = join(FIXTURES, "webapp-testing");

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "oz0-formats-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A copy of the Claude Code fixture, changed by `edit`, to refuse one part at a time. */
async function claudeCodeWith(name: string, edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(scratch, name);
  await cp(CLAUDE_CODE, dir, { recursive: true });
  await edit(dir);
  return dir;
}

async function refusalOf(dir: string): Promise<string> {
  const error = await loadPluginDir(dir).then(
    () => undefined,
    (caught: unknown) => caught as Error & { code: string },
  );
  expect(error?.code).toBe("INVALID_PLUGIN");
  return error?.message ?? "";
}

describe("Claude Code plugins", () => {
  it("a Claude Code plugin loads with its plugin.json name and its skills' bundled files", async () => {
    const loaded = await loadPluginDir(CLAUDE_CODE);
    expect(loaded.manifest.name).toBe("math-olympiad");
    expect(loaded.manifest.version).toBe("1.0.0");
    const skill = loaded.skills.find((entry) => entry.name === "math-olympiad");
    expect(skill?.files?.["references/known_constructions.md"]).toContain("#");
    expect(skill?.files?.["scripts/check_latex.sh"]).toBeDefined();
  });

  it("a Claude Code subagent becomes an oz0 agent with its body as prompt and its model as the alias", async () => {
    const dir = await claudeCodeWith("agent", async (d) => {
      await mkdir(join(d, "agents"));
      await writeFile(
        join(d, "agents/checker.md"),
        "---\nname: checker\ndescription: Checks a proof.\nmodel: opus\ncolor: red\n---\nYou check proofs.\n",
      );
    });
    const agent = (await loadPluginDir(dir)).agents.find((entry) => entry.definition.name === "checker");
    expect(agent?.prompt).toContain("You check proofs.");
    expect(agent?.definition.model?.use).toBe("opus");
    expect(agent?.file).toBe("agents/checker.md");
  });

  it("refuses hooks/, naming the folder and why", async () => {
    const dir = await claudeCodeWith("hooks", async (d) => {
      await mkdir(join(d, "hooks"));
      await writeFile(join(d, "hooks/hooks.json"), '{"hooks":{}}');
    });
    expect(await refusalOf(dir)).toMatch(/hooks:1:1 OZ-S030 runs shell commands on Claude Code events/);
  });

  it("a slash command in commands/ becomes an agent a person runs, its arguments the job's input", async () => {
    const dir = await claudeCodeWith("commands", async (d) => {
      await mkdir(join(d, "commands"));
      await writeFile(
        join(d, "commands/explain.md"),
        "---\ndescription: Explain a proof step by step.\nargument-hint: <problem>\nmodel: haiku\n---\nExplain $ARGUMENTS to a student, one step at a time.\n",
      );
      // Front matter is optional: the first line describes the command then.
      await writeFile(join(d, "commands/hint.md"), "# Give one hint\n\nGive a single hint for $ARGUMENTS.\n");
    });
    const { agents } = await loadPluginDir(dir);
    const explain = agents.find((entry) => entry.definition.name === "explain");
    expect(explain?.file).toBe("commands/explain.md");
    expect(explain?.definition).toMatchObject({
      description: "Explain a proof step by step. Arguments: <problem>",
      input: "text",
      output: "text",
      model: { use: "haiku" },
    });
    expect(explain?.prompt).toContain(
      "Explain the arguments the person gave (the user message) to a student",
    );
    expect(explain?.prompt).not.toContain("$ARGUMENTS");
    const hint = agents.find((entry) => entry.definition.name === "hint");
    expect(hint?.definition.description).toBe("Give one hint");
  });

  it("refuses a command whose body Claude Code would expand: shell lines, positional arguments, @file references", async () => {
    const dir = await claudeCodeWith("command-expansions", async (d) => {
      await mkdir(join(d, "commands"));
      await writeFile(
        join(d, "commands/status.md"),
        "---\ndescription: Status\n---\nThe tree: !`git status`\n",
      );
      await writeFile(join(d, "commands/pair.md"), "---\ndescription: Pair\n---\nCompare $1 with $2.\n");
      await writeFile(
        join(d, "commands/readme.md"),
        "---\ndescription: Readme\n---\nSummarise @docs/README.md\n",
      );
    });
    const refusal = await refusalOf(dir);
    expect(refusal).toMatch(/commands\/status\.md:1:1 OZ-S030 body line 1 runs a shell command/);
    expect(refusal).toMatch(/commands\/pair\.md:1:1 OZ-S030 body line 1 takes one argument by position/);
    expect(refusal).toMatch(/commands\/readme\.md:1:1 OZ-S030 body line 1 references a file with @path/);
  });

  it("refuses a command's allowed-tools and disable-model-invocation, and a command named like a subagent", async () => {
    const dir = await claudeCodeWith("command-fields", async (d) => {
      await mkdir(join(d, "commands"));
      await writeFile(
        join(d, "commands/go.md"),
        "---\ndescription: Go\nallowed-tools: Bash(git add:*)\ndisable-model-invocation: true\n---\nGo $ARGUMENTS\n",
      );
      await mkdir(join(d, "agents"));
      await writeFile(
        join(d, "agents/checker.md"),
        "---\nname: checker\ndescription: Checks.\n---\nYou check.\n",
      );
      await writeFile(join(d, "commands/checker.md"), "Check $ARGUMENTS\n");
      await mkdir(join(d, "commands/git"));
      await writeFile(join(d, "commands/git/commit.md"), "Commit\n");
    });
    const refusal = await refusalOf(dir);
    expect(refusal).toMatch(/commands\/go\.md:3:1 OZ-S030 allowed-tools: grants Claude Code's tools/);
    expect(refusal).toMatch(
      /commands\/go\.md:4:1 OZ-S030 disable-model-invocation: keeps models from running/,
    );
    expect(refusal).toMatch(
      /commands\/checker\.md:1:1 OZ-S030 is agent checker, which agents\/checker\.md defines too/,
    );
    expect(refusal).toMatch(/commands\/git:1:1 OZ-S030 is a folder of namespaced commands/);
  });

  it("a .mcp.json server becomes an MCP-backed tool of the plugin, as oz0 mcp import maps it", async () => {
    const dir = await claudeCodeWith("mcp", async (d) => {
      // The shape of anthropics/claude-plugins-official's example-plugin: servers at the top.
      await writeFile(
        join(d, ".mcp.json"),
        '{"example-server":{"type":"http","url":"https://mcp.example.com/api"}}',
      );
    });
    const tools = (await loadPluginDir(dir)).manifest.tools ?? [];
    expect(tools.map((tool) => [tool.id, tool.mcp])).toEqual([
      ["example-server", { url: "https://mcp.example.com/api" }],
    ]);
  });

  it("refuses a .mcp.json that holds a secret in clear, naming it, and never echoes its value", async () => {
    const dir = await claudeCodeWith("mcp-secret", async (d) => {
      await writeFile(
        join(d, ".mcp.json"),
        '{"mcpServers":{"gh":{"command":"npx","args":["-y","server-github"],"env":{"GITHUB_TOKEN":"ghp_notarealtoken0000"}}}}',
      );
    });
    const message = await refusalOf(dir);
    expect(message).toMatch(/\.mcp\.json:1:1 OZ-S030 holds secrets in clear: gh env GITHUB_TOKEN/);
    expect(message).toContain("oz0 mcp secret set math-olympiad/<tool>");
    expect(message).not.toContain("ghp_notarealtoken0000");
  });

  it("refuses a .mcp.json ${VAR} expansion, which oz0 does not do", async () => {
    const dir = await claudeCodeWith("mcp-expansion", async (d) => {
      await writeFile(
        join(d, ".mcp.json"),
        '{"mcpServers":{"local":{"command":"${CLAUDE_PLUGIN_ROOT}/servers/run"}}}',
      );
    });
    expect(await refusalOf(dir)).toMatch(/holds \$\{CLAUDE_PLUGIN_ROOT\}, which Claude Code expands/);
  });

  it("refuses a .mcp.json server oz0 cannot run, in oz0 mcp import's words", async () => {
    const dir = await claudeCodeWith("mcp-sse", async (d) => {
      await writeFile(join(d, ".mcp.json"), '{"old":{"type":"sse","url":"https://mcp.example.com/sse"}}');
    });
    expect(await refusalOf(dir)).toMatch(/mcpServers\.old\.type is sse/);
  });

  it("refuses a subagent's Claude Code tools, at the tools line", async () => {
    const dir = await claudeCodeWith("tools", async (d) => {
      await mkdir(join(d, "agents"));
      await writeFile(
        join(d, "agents/reader.md"),
        "---\nname: reader\ndescription: Reads.\ntools: Read, Grep\n---\nRead.\n",
      );
    });
    expect(await refusalOf(dir)).toMatch(
      /agents\/reader\.md:4:1 OZ-S030 tools: names Claude Code's tools \(Read, Grep\)/,
    );
  });

  it("refuses a model oz0 has no alias rule for", async () => {
    const dir = await claudeCodeWith("model", async (d) => {
      await mkdir(join(d, "agents"));
      await writeFile(
        join(d, "agents/m.md"),
        "---\nname: m\ndescription: M.\nmodel: claude-opus-4-1\n---\nHi.\n",
      );
    });
    expect(await refusalOf(dir)).toMatch(/agents\/m\.md:4:1 OZ-S030 model: is "claude-opus-4-1"/);
  });

  it("refuses plugin.json component paths oz0 does not follow", async () => {
    const dir = await claudeCodeWith("paths", async (d) => {
      await writeFile(
        join(d, ".claude-plugin/plugin.json"),
        JSON.stringify({ name: "math-olympiad", commands: ["./extra.md"] }),
      );
    });
    expect(await refusalOf(dir)).toMatch(/plugin\.json:1:1 OZ-S030 commands: names a place/);
  });

  it("lint reports the same refusals as install, as OZ-S030 errors", async () => {
    const dir = await claudeCodeWith("lint", async (d) => {
      await mkdir(join(d, "hooks"));
      await writeFile(join(d, "hooks/hooks.json"), "{}");
    });
    const report = await lintPlugin(dir, { writeListing: false });
    expect(report.findings.map((f) => `${f.file} ${f.code} ${f.severity}`)).toEqual(["hooks OZ-S030 error"]);
    expect((await lintPlugin(CLAUDE_CODE, { writeListing: false })).summary.errors).toBe(0);
  });
});

describe("standalone Agent Skills", () => {
  it("a standalone skill loads as a plugin named by its front matter, holding that one skill", async () => {
    const loaded = await loadPluginDir(INTERNAL_COMMS);
    expect(loaded.manifest.name).toBe("internal-comms");
    expect(loaded.skills.map((skill) => skill.name)).toEqual(["internal-comms"]);
    expect(loaded.skills[0]?.files?.["examples/3p-updates.md"]).toContain("3P");
    const webapp = await loadPluginDir(WEBAPP_TESTING);
    expect(webapp.skills[0]?.files?.["scripts/with_server.py"]).toContain("def ");
  });

  it("a skill's compatibility reaches the agent with its body", async () => {
    const dir = join(scratch, "compat");
    await mkdir(dir);
    await writeFile(
      join(dir, "SKILL.md"),
      "---\nname: compat\ndescription: C.\ncompatibility: Needs python3\n---\nBody.\n",
    );
    expect((await loadPluginDir(dir)).skills[0]?.body).toMatch(/^Compatibility: Needs python3\n\nBody\./);
  });

  it("refuses allowed-tools, since an oz0 skill grants no tools", async () => {
    const dir = join(scratch, "allowed");
    await mkdir(dir);
    await writeFile(
      join(dir, "SKILL.md"),
      "---\nname: allowed\ndescription: A.\nallowed-tools: Bash(git:*) Read\n---\nBody.\n",
    );
    expect(await refusalOf(dir)).toMatch(/SKILL\.md:4:1 OZ-S030 allowed-tools: pre-approves tools/);
  });

  it("refuses a bundled file that is a link out of the skill folder", async () => {
    const dir = join(scratch, "linked");
    await mkdir(join(dir, "references"), { recursive: true });
    await writeFile(join(dir, "SKILL.md"), "---\nname: linked\ndescription: L.\n---\nBody.\n");
    await symlink("/etc/hostname", join(dir, "references/host.md"));
    const error = await loadPluginDir(dir).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/references\/host\.md is a link that leads out of the plugin folder/);
  });

  it("refuses a front matter field the format does not have", async () => {
    const dir = join(scratch, "unknown");
    await mkdir(dir);
    await writeFile(
      join(dir, "SKILL.md"),
      "---\nname: unknown\ndescription: U.\ntriggers: [a]\n---\nBody.\n",
    );
    expect(await refusalOf(dir)).toMatch(/triggers: is not an Agent Skills field/);
  });
});

const engines = engineFixtures();
afterAll(() => disposeFixtures(engines));

describe.each(engines)("installing the vendored examples on $label", (fixture) => {
  let store: Store;
  let catalog: Catalog;
  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    catalog = new Catalog(store, await mkdtemp(join(tmpdir(), "oz0-formats-home-")));
  });
  afterAll(() => store.close());

  it("installs a Claude Code plugin and two Agent Skills into a tenant, each loadable with its files", async () => {
    for (const [dir, name, file] of [
      [CLAUDE_CODE, "math-olympiad", "references/known_constructions.md"],
      [INTERNAL_COMMS, "internal-comms", "examples/faq-answers.md"],
      [WEBAPP_TESTING, "webapp-testing", "scripts/with_server.py"],
    ] as const) {
      await catalog.install("formats", dir);
      const loaded = await catalog.loadInstalled("formats", name);
      expect(loaded.skills[0]?.files?.[file], name).toBeDefined();
    }
  });

  it("a job reads a bundled reference file of each installed foreign skill through oz.skill", async () => {
    const tenant = `jobs-${fixture.label}`;
    for (const dir of [CLAUDE_CODE, INTERNAL_COMMS, WEBAPP_TESTING, join(FIXTURES, "../formats-reader")]) {
      await catalog.install(tenant, dir);
    }
    const reads = [
      ["math-olympiad/math-olympiad", "references/known_constructions.md"],
      ["internal-comms/internal-comms", "examples/faq-answers.md"],
      ["webapp-testing/webapp-testing", "scripts/with_server.py"],
    ] as const;
    const jobs = new JobEngine({
      store,
      source: catalog,
      home: await mkdtemp(join(tmpdir(), "oz0-formats-jobs-")),
      models: scripted([
        ...reads.map(([name, file]) => ({ call: { function: "oz__skill", args: { name, file } } })),
        {
          call: {
            function: "oz__skill",
            args: { name: "internal-comms/internal-comms", file: "../SKILL.md" },
          },
        },
        { text: "read" },
      ]),
    });
    const started = await jobs.start({ tenant, agent: "formats-reader/reader", input: "go" });
    const job = await jobs.run(started.id, { tenant });
    expect(job.status).toBe("succeeded");
    const results = ofKind(await jobs.events(job.id, { tenant }), "tool_result").map((entry) => entry.data);
    for (const [index, [name, file]] of reads.entries()) {
      const local = await readFile(
        join(FIXTURES, name.split("/")[0] ?? "", name.startsWith("math") ? "skills/math-olympiad" : "", file),
        "utf8",
      );
      expect(results[index]).toMatchObject({ ok: true, result: { name, file, text: local } });
    }
    // A path out of the skill folder is no bundled file: the model is told, nothing is read.
    expect(results[3]).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("installs a Claude Code plugin's .mcp.json server as its MCP-backed tool", async () => {
    const dir = await claudeCodeWith(`install-mcp-${fixture.label}`, async (d) => {
      await writeFile(
        join(d, ".mcp.json"),
        '{"example-server":{"type":"http","url":"https://mcp.example.com/api"}}',
      );
    });
    await catalog.install(`mcp-${fixture.label}`, dir);
    const loaded = await catalog.loadInstalled(`mcp-${fixture.label}`, "math-olympiad");
    expect(loaded.manifest.tools?.map((tool) => tool.id)).toEqual(["example-server"]);
  });

  it("lint against the tenant reports the tool clash install refuses a Claude Code plugin for", async () => {
    const tenant = `clash-${fixture.label}`;
    const mcp = '{"example-server":{"type":"http","url":"https://mcp.example.com/api"}}';
    const first = await claudeCodeWith(`clash-a-${fixture.label}`, (d) =>
      writeFile(join(d, ".mcp.json"), mcp),
    );
    const second = await claudeCodeWith(`clash-b-${fixture.label}`, async (d) => {
      await writeFile(join(d, ".mcp.json"), mcp);
      await writeFile(join(d, ".claude-plugin/plugin.json"), '{"name":"other-olympiad"}');
    });
    await catalog.install(tenant, first);
    const report = await lintPlugin(second, {
      writeListing: false,
      tenant: { tenant, plugins: [], check: (dir) => catalog.installProblems(tenant, dir) },
    });
    const linted = report.findings.map((f) => `${f.file} ${f.code}`);
    expect(linted).toEqual([".claude-plugin/plugin.json OZ-S027"]);
    expect(report.findings[0]?.message).toContain("tool example-server is taken");
    await expect(catalog.install(tenant, second)).rejects.toThrow(/tool example-server is taken/);
  });

  it("refuses to install a Claude Code plugin with hooks, leaving the tenant without it", async () => {
    const dir = await claudeCodeWith(`install-hooks-${fixture.label}`, async (d) => {
      await mkdir(join(d, "hooks"));
      await writeFile(join(d, "hooks/hooks.json"), "{}");
      await writeFile(join(d, ".claude-plugin/plugin.json"), '{"name":"hooked"}');
    });
    await expect(catalog.install("formats-2", dir)).rejects.toThrow(/OZ-S030/);
    expect((await catalog.list("formats-2").catch(() => [])).map((p) => p.name)).not.toContain("hooked");
  });
});
