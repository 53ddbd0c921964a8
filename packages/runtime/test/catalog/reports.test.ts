import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/catalog/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { disposeFixtures, engineFixtures } from "../store/engines.js";
import { plugin, refusal } from "./helpers.js";

const fixtures = engineFixtures();
afterAll(() => disposeFixtures(fixtures));

describe.each(fixtures)("what the catalog shows on $label", (fixture) => {
  let store: Store;
  let catalog: Catalog;
  const tenant = "shown";

  beforeAll(async () => {
    store = await openStore(await fixture.fresh());
    catalog = new Catalog(store, tmpdir());
    for (const name of ["support-triage", "github", "escalations", "acme-release-notes", "files"]) {
      await catalog.install(tenant, plugin(name));
    }
  });
  afterAll(() => store.close());

  it("lists every agent, flow, tool, function and skill of the tenant by address", async () => {
    const entries = await catalog.entries(tenant);
    expect(entries.map((entry) => `${entry.kind} ${entry.address}`)).toEqual([
      "agent acme-release-notes/acme-release-notes",
      "agent escalations/escalate",
      "agent files/librarian",
      "agent github/oz0-github",
      "agent support-triage/triage",
      "flow acme-release-notes/weekly-notes",
      "tool files/fs",
      "tool github/oz0_github",
      "tool support-triage/tickets",
      "function github/oz0_github.get_file",
      "function github/oz0_github.get_pull_request",
      "function github/oz0_github.list_pull_requests",
      "function support-triage/tickets.assign",
      "function support-triage/tickets.lookup",
      "skill github/review-guide",
      "skill support-triage/escalation",
    ]);
    expect(entries.find((entry) => entry.address === "support-triage/tickets.lookup")).toEqual({
      kind: "function",
      address: "support-triage/tickets.lookup",
      plugin: "support-triage",
      name: "tickets.lookup",
      description: "Look a ticket up by id.",
      tags: [],
      modelName: "tickets__lookup",
      clash: false,
    });
  });

  it("lists only the agents with a tag when asked", async () => {
    const tagged = await catalog.entries(tenant, { tag: "support" });
    expect(tagged.map((entry) => entry.address)).toEqual(["support-triage/triage"]);
  });

  it("inspects a plugin with its agents' tools, delegation, tools, functions and skills by address", async () => {
    const detail = await catalog.inspect(tenant, "acme-release-notes");
    expect(detail.agents).toEqual([
      {
        address: "acme-release-notes/acme-release-notes",
        description: "Writes release notes from the merged pull requests.",
        file: "agents/acme-release-notes.yaml",
        tags: ["writing"],
        tools: ["github/oz0_github.list_pull_requests", "oz.delegate"],
        delegation: ["github/oz0-github"],
        skills: [],
      },
    ]);
    expect(detail.flows).toEqual([
      {
        address: "acme-release-notes/weekly-notes",
        description: "Release notes for the week's merged pull requests.",
        steps: 2,
      },
    ]);
    const triage = await catalog.inspect(tenant, "support-triage");
    expect(triage).toMatchObject({
      name: "support-triage",
      version: "1.2.0",
      description: "Triage incoming support tickets.",
      dir: await realpath(plugin("support-triage")),
      forcedReason: null,
      tools: [
        {
          address: "support-triage/tickets",
          description: "Ticket store.",
          source: "code",
          functions: [
            {
              address: "support-triage/tickets.assign",
              description: "Put a ticket in a queue.",
              modelName: "tickets__assign",
            },
            {
              address: "support-triage/tickets.lookup",
              description: "Look a ticket up by id.",
              modelName: "tickets__lookup",
            },
          ],
        },
      ],
      skills: [{ address: "support-triage/escalation", file: "skills/escalation/SKILL.md" }],
    });
    expect(triage.changes).toEqual([expect.objectContaining({ action: "install", version: "1.2.0" })]);
  });

  it("shows a bare name of another plugin's part at the address of its owner", async () => {
    const [agent] = (await catalog.inspect(tenant, "escalations")).agents;
    expect(agent?.tools).toEqual(["support-triage/tickets.lookup", "oz.delegate"]);
    expect(agent?.delegation).toEqual(["support-triage/triage"]);
  });

  it("shows an MCP tool without functions, since its server lists them when a job starts", async () => {
    const detail = await catalog.inspect(tenant, "files");
    expect(detail.tools).toEqual([
      { address: "files/fs", description: "A filesystem MCP server.", source: "mcp", functions: [] },
    ]);
  });

  it("lists the installed plugins by name with their versions and how many parts they have", async () => {
    const list = await catalog.list(tenant);
    expect(list.map((one) => `${one.name} ${one.version}`)).toEqual([
      "acme-release-notes 1.0.0",
      "escalations 1.0.0",
      "files 1.0.0",
      "github 1.4.0",
      "support-triage 1.2.0",
    ]);
    expect(list.find((one) => one.name === "support-triage")?.parts).toEqual({
      agent: 1,
      flow: 0,
      tool: 1,
      function: 2,
      skill: 1,
    });
  });

  it("refuses to inspect a plugin that is not installed", async () => {
    const error = await refusal(catalog.inspect(tenant, "support-triag"), "NOT_FOUND");
    expect(error.message).toBe(
      `plugin support-triag is not installed in tenant ${tenant}; did you mean support-triage?`,
    );
  });
});
