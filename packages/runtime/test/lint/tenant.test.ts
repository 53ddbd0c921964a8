import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  lintPlugin,
  type TenantContext,
  tenantContextFromCatalog,
  tenantContextFromEntries,
} from "../../src/lint/index.js";
import { copyFixture, fixture, lintLines } from "./fixtures.js";

const TENANT: TenantContext = {
  tenant: "default",
  plugins: [
    {
      name: "github",
      tools: ["oz0_github"],
      functions: ["oz0_github.get_file", "oz0_github.list_pull_requests"],
      agents: ["oz0-github"],
    },
    { name: "support-triage", agents: ["triage"], flows: ["nightly-sweep"] },
    { name: "harnesses", harnesses: [{ name: "homebrew-agent", protocol: "jsonl" }] },
  ],
};

describe("lint against a tenant", () => {
  it("builds the tenant context from a catalog's entries by address", async () => {
    const entries = [
      { kind: "function", address: "github/oz0_github.get_file" },
      { kind: "tool", address: "github/oz0_github" },
      { kind: "agent", address: "github/oz0-github" },
      { kind: "flow", address: "support-triage/nightly-sweep" },
      { kind: "skill", address: "web/research" },
      { kind: "routine", address: "github/nightly" },
    ];
    const context = await tenantContextFromCatalog({ entries: async () => entries }, "acme");
    expect(context).toEqual(tenantContextFromEntries("acme", entries));
    expect(context).toEqual({
      tenant: "acme",
      plugins: [
        {
          name: "github",
          tools: ["oz0_github"],
          functions: ["oz0_github.get_file"],
          agents: ["oz0-github"],
          flows: [],
          skills: [],
        },
        {
          name: "support-triage",
          tools: [],
          functions: [],
          agents: [],
          flows: ["nightly-sweep"],
          skills: [],
        },
        { name: "web", tools: [], functions: [], agents: [], flows: [], skills: ["research"] },
      ],
    });
  });

  it("OZ-S019: knows a bare name is another plugin's part from the tenant, with no uses: to go by", async () => {
    const dir = await copyFixture("oz-s001", "passes");
    const manifest = join(dir, "plugin.yaml");
    const references = "    tools: [oz0_github.get_file]\n    delegation:\n      allow: [triage]\n";
    await writeFile(manifest, `${await readFile(manifest, "utf8")}${references}`);
    expect(await lintLines(dir, { tenant: TENANT })).toEqual([
      "plugin.yaml:10:13 warning OZ-S019 'oz0_github.get_file' is github's function, named bare; write its address github/oz0_github.get_file (oz0 plugin lint --fix writes it)",
      "plugin.yaml:10:13 warning OZ-S020 tools names github/oz0_github.get_file, but uses: does not list plugin 'github'; add it under uses: with tools: [oz0_github.get_file]: github must be installed, and a job's call of it is refused (NOT_GRANTED) until uses: grants it",
      "plugin.yaml:12:15 warning OZ-S019 'triage' is support-triage's agent, named bare; write its address support-triage/triage (oz0 plugin lint --fix writes it)",
      "plugin.yaml:12:15 warning OZ-S020 delegation.allow names support-triage/triage, but uses: does not list plugin 'support-triage'; add it under uses: with agents: [triage]: support-triage must be installed, and a job's delegation to it is refused (NOT_GRANTED) until uses: grants it",
    ]);
    // Alone, lint cannot know whose these names are.
    expect(await lintLines(dir)).toEqual([]);
  });

  it("OZ-S019: finds bare names in flow steps, routines and skills.propose.apply, and --fix rewrites them", async () => {
    const dir = await copyFixture("oz-s001", "passes");
    const manifest = join(dir, "plugin.yaml");
    const more = [
      "    skills:",
      "      propose: { into: docs, apply: oz0_github.get_file, repository: acme/docs }",
      "flows:",
      "  - name: sweep",
      "    steps:",
      "      - id: read",
      "        call: oz0_github.get_file",
      "      - id: sort",
      "        agent: nightly-sweep",
      "routines:",
      '  - { name: nightly, schedule: "0 3 * * *", run: triage }',
      "uses:",
      "  github: { tools: [oz0_github.get_file] }",
      "  support-triage: { agents: [triage] }",
      "",
    ].join("\n");
    await writeFile(manifest, `${await readFile(manifest, "utf8")}${more}`);
    const lines = await lintLines(dir, { tenant: TENANT });
    expect(lines.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "plugin.yaml:11:37 warning OZ-S019",
      "plugin.yaml:16:15 warning OZ-S019",
      "plugin.yaml:18:16 warning OZ-S019",
      "plugin.yaml:20:50 warning OZ-S019",
    ]);
    expect(lines[2]).toContain(
      "'nightly-sweep' is support-triage's flow, named bare; write its address support-triage/nightly-sweep",
    );
    await lintPlugin(dir, { tenant: TENANT, fix: true, writeListing: false });
    const fixed = await readFile(manifest, "utf8");
    expect(fixed).toContain("apply: github/oz0_github.get_file, repository");
    expect(fixed).toContain("call: github/oz0_github.get_file\n");
    expect(fixed).toContain("agent: support-triage/nightly-sweep\n");
    expect(fixed).toContain("run: support-triage/triage }");
  });

  it("OZ-S021: refuses an address whose plugin does not own the part, with the owner the tenant knows", async () => {
    expect(await lintLines(fixture("oz-s021", "triggers"), { tenant: TENANT })).toEqual([
      "plugin.yaml:13:13 error OZ-S021 gitlab/oz0_github.get_file is not a function of gitlab: oz0_github.get_file is github's; write github/oz0_github.get_file",
    ]);
    expect(await lintLines(fixture("oz-s021", "triggers"))).toEqual([]);
  });

  it("OZ-S021: accepts an address that names the owner", async () => {
    expect(await lintLines(fixture("oz-s021", "passes"), { tenant: TENANT })).toEqual([]);
  });

  it("does not count the plugin's own installed version as another plugin", async () => {
    const tenant: TenantContext = {
      tenant: "default",
      plugins: [{ name: "acme-release-notes", tools: ["oz0_github"] }],
    };
    expect(await lintLines(fixture("oz-s019", "passes"), { tenant })).toEqual([]);
  });

  it("OZ-S022: an agent that asks more of its callers than the installed version did, without a new major version", async () => {
    const tenant: TenantContext = {
      tenant: "default",
      plugins: [
        {
          name: "sorting",
          agents: ["sorter"],
          contract: { version: "1.2.0", agents: [{ name: "sorter", failures: [{ kind: "no_queue" }] }] },
        },
      ],
    };
    expect(await lintLines(fixture("oz-s022", "triggers"), { tenant })).toEqual([
      "plugin.yaml:14:20 error OZ-S022 agent sorting/sorter turns on retryable for its failure kind no_queue (retryable: false → true) over sorting 1.2.0, installed in tenant 'default', without a new major version; callers branch on failure kinds and flags, so release this as 2.0.0",
      "plugin.yaml:15:15 error OZ-S022 agent sorting/sorter adds the failure kind queue_full over sorting 1.2.0, installed in tenant 'default', without a new major version; callers branch on failure kinds and flags, so release this as 2.0.0",
    ]);
    expect(await lintLines(fixture("oz-s022", "passes"), { tenant })).toEqual([]);
    expect(await lintLines(fixture("oz-s022", "triggers"))).toEqual([]);
  });

  it("reads the installed version's failure contracts from the catalog", async () => {
    const contracts = [{ plugin: "sorting", version: "1.2.0", agents: [{ name: "sorter", failures: [] }] }];
    const context = await tenantContextFromCatalog(
      {
        entries: async () => [{ kind: "agent", address: "sorting/sorter" }],
        contracts: async () => contracts,
      },
      "acme",
    );
    expect(context.plugins[0]?.contract).toEqual({
      version: "1.2.0",
      agents: [{ name: "sorter", failures: [] }],
    });
  });

  it("OZ-S010 says no plugin of the tenant provides a harness when none does", async () => {
    const tenant: TenantContext = {
      tenant: "default",
      plugins: [{ name: "github", tools: ["oz0_github"], harnesses: [] }],
    };
    expect(await lintLines(fixture("oz-s010", "triggers"), { tenant })).toEqual([
      "plugin.yaml:6:14 warning OZ-S010 agent 'coder' runs on harness 'homebrew-agent', which no plugin of tenant 'default' provides and which is not one of oz0's official harnesses (claude-code, gemini-cli, codex, claude-agent-sdk); install the plugin that provides it once you trust it, or use an official one",
    ]);
  });

  it("OZ-S010 and OZ-S008: names the plugin that provides a harness, and knows its protocol", async () => {
    expect(await lintLines(fixture("oz-s010", "triggers"), { tenant: TENANT })).toEqual([
      "plugin.yaml:6:14 warning OZ-S010 agent 'coder' runs on harness 'homebrew-agent' from plugin 'harnesses', which is not one of oz0's official harnesses (claude-code, gemini-cli, codex, claude-agent-sdk); check that you trust it, or use an official one",
    ]);
    const dir = await copyFixture("oz-s010", "triggers");
    const manifest = join(dir, "plugin.yaml");
    await writeFile(
      manifest,
      (await readFile(manifest, "utf8")).replace("[oz.ask_user]", "[oz.ask_user, oz.fail]"),
    );
    expect((await lintLines(dir, { tenant: TENANT })).map((line) => line.split(" ")[2])).toEqual([
      "OZ-S010",
      "OZ-S008",
    ]);
  });
});
