// A flow as its page shows it (`services.catalog.flow`): its description, where its steps are
// written and its input schema, which StartJob checks the input against before the job exists,
// as it does an agent's.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localAdmin } from "../../src/callers/index.js";
import { Runtime } from "../../src/runtime.js";

const SCOPED = join(import.meta.dirname, "../fixtures/services/scoped");
const FLOWS = join(import.meta.dirname, "../fixtures/flows/ledger-flows");
const admin = localAdmin("default", "cli:admin");

let home: string;
let runtime: Runtime;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-flow-detail-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  await runtime.services.plugins.install(admin, SCOPED);
  await runtime.services.plugins.install(admin, FLOWS);
});
afterAll(async () => {
  await runtime.close();
  await rm(home, { recursive: true, force: true });
});

describe("a flow's page", () => {
  it("gives a YAML flow's description and input schema, read from the plugin", async () => {
    expect(await runtime.services.catalog.flow(admin, "scoped/payrun")).toEqual({
      address: "scoped/payrun",
      plugin: "scoped",
      name: "payrun",
      description: "Runs the payroll for one month.",
      source: "yaml",
      tags: [],
      inputSchema: {
        type: "object",
        properties: { month: { type: "string", title: "Month", pattern: "^[a-z]+$" } },
        required: ["month"],
      },
      outputSchema: null,
    });
  });

  it("gives a code flow's, and null for a flow that takes text", async () => {
    expect(await runtime.services.catalog.flow(admin, "ledger-flows/code-steps")).toMatchObject({
      source: "code",
      description: "Two ledger entries, in code.",
      inputSchema: null,
    });
    expect(await runtime.services.catalog.flow(admin, "ledger-flows/yaml-steps")).toMatchObject({
      source: "yaml",
      inputSchema: null,
    });
  });

  it("answers an agent's address as no flow", async () => {
    await expect(runtime.services.catalog.flow(admin, "scoped/payroll")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("StartJob of a flow", () => {
  it("refuses input its input schema does not describe with INVALID_INPUT, each problem at its place, before the job exists", async () => {
    const before = await runtime.services.jobs.search(admin, { agent: "scoped/payrun" });
    const refused = runtime.services.jobs.start(admin, {
      agent: "scoped/payrun",
      input: { month: "March 1" },
      checkInput: true,
    });
    await expect(refused).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("scoped/payrun's input_schema schemas/payrun.json"),
      data: { issues: [{ path: "month", message: 'must match pattern "^[a-z]+$"' }] },
    });
    await expect(
      runtime.services.jobs.start(admin, { agent: "scoped/payrun", input: {}, checkInput: true }),
    ).rejects.toMatchObject({
      data: { issues: [{ path: "", message: "must have required property 'month'" }] },
    });
    expect(await runtime.services.jobs.search(admin, { agent: "scoped/payrun" })).toEqual(before);
  });

  it("refuses structured input to a flow that takes text, and starts one whose input fits", async () => {
    await expect(
      runtime.services.jobs.start(admin, {
        agent: "ledger-flows/yaml-steps",
        input: { a: 1 },
        checkInput: true,
      }),
    ).rejects.toMatchObject({
      code: "INVALID_INPUT",
      data: { issues: [{ path: "", message: "must be text" }] },
    });
    const job = await runtime.services.jobs.start(admin, {
      agent: "scoped/payrun",
      input: { month: "march" },
      checkInput: true,
    });
    expect(job).toMatchObject({ agent: "scoped/payrun", status: "queued" });
  });
});
