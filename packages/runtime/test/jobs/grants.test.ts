// uses: grants at run time: an agent (or a flow) reaches another plugin's function or agent
// only when its plugin's uses: lists it, whatever its tools: and delegation: say.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Oz0Error } from "@oz0/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobEvent } from "../../src/jobs/index.js";
import { Runtime } from "../../src/runtime.js";
import { ofKind } from "./helpers.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url));

let runtime: Runtime;
let home: string;
let tenants = 0;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "oz0-grants-"));
  runtime = await Runtime.open({ home, memory: true, defaultPlugins: [] });
  return async () => {
    await runtime.close();
    await rm(home, { recursive: true, force: true });
  };
});

/** A fresh tenant with github and the freeloader plugin (no uses:, or the granted version). */
async function tenant(freeloader = "freeloader"): Promise<string> {
  tenants += 1;
  const name = `grants-${tenants}`;
  await runtime.catalog.install(name, fixture("github"));
  await runtime.catalog.install(name, fixture(freeloader));
  return name;
}

async function run(tenant: string, agent: string): Promise<JobEvent[]> {
  const started = await runtime.jobs.start({ tenant, agent, input: "acme/site" });
  await runtime.jobs.run(started.id, { tenant: started.tenant });
  return runtime.jobs.events(started.id, { tenant: started.tenant });
}

const GET_FILE_REFUSED =
  "uses: of freeloader does not list plugin github, so freeloader's parts may not call github/oz0_github.get_file: " +
  "another plugin's function is reached only when uses: grants it. Add oz0_github.get_file under uses.github.tools " +
  "in freeloader's plugin.yaml (uses: { github: { tools: [oz0_github.get_file] } }) and update the plugin";

describe("uses: grants at run time", () => {
  it("refuses an agent's call of another plugin's function that uses: does not grant, naming the entry to add", async () => {
    const events = await run(await tenant(), "freeloader/grabber");
    expect(ofKind(events, "function_left_out").map((entry) => entry.data)).toEqual([
      { name: "oz0_github__get_file", address: "github/oz0_github.get_file", reason: GET_FILE_REFUSED },
    ]);
    expect(ofKind(events, "context_assembled")[0]?.data.functions).toEqual([]);
    const results = ofKind(events, "tool_result").map((entry) => entry.data);
    expect(results).toEqual([
      { callId: "1.1", ok: false, error: { code: "NOT_GRANTED", message: GET_FILE_REFUSED }, ms: 0 },
    ]);
  });

  it("refuses a lazily loading agent's oz.call_tool of another plugin's function that uses: does not grant", async () => {
    const events = await run(await tenant(), "freeloader/finder");
    expect(ofKind(events, "tool_result")[0]?.data).toEqual({
      callId: "1.1",
      ok: false,
      error: { code: "NOT_GRANTED", message: GET_FILE_REFUSED },
      ms: 0,
    });
  });

  it("refuses an agent's delegation to another plugin's agent that uses: does not grant", async () => {
    const events = await run(await tenant(), "freeloader/handoff");
    expect(ofKind(events, "child_job_started")).toEqual([]);
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({
      ok: false,
      error: {
        code: "NOT_GRANTED",
        message:
          "uses: of freeloader does not list plugin github, so freeloader's parts may not delegate to github/oz0-github: " +
          "another plugin's agent is reached only when uses: grants it. Add oz0-github under uses.github.agents in " +
          "freeloader's plugin.yaml (uses: { github: { agents: [oz0-github] } }) and update the plugin",
      },
    });
  });

  it("fails a flow's step that calls another plugin's function uses: does not grant", async () => {
    const tenantName = await tenant();
    const started = await runtime.jobs.start({
      tenant: tenantName,
      agent: "freeloader/fetch",
      input: "acme/site",
    });
    const done = await runtime.jobs.run(started.id, { tenant: started.tenant });
    expect(done.status).toBe("failed");
    expect(done.failure?.message).toContain(`NOT_GRANTED: ${GET_FILE_REFUSED}`);
  });

  it("refuses to apply a skill proposal with another plugin's function that uses: does not grant", async () => {
    const refusedIn = async (tenantName: string) => {
      const events = await run(tenantName, "freeloader/proposer");
      const result = ofKind(events, "tool_result")[0]?.data.result as { proposal: string };
      return runtime.proposals.approve(tenantName, result.proposal, "alice").then(
        () => undefined,
        (thrown: unknown) => thrown as Oz0Error,
      );
    };
    const refused = await refusedIn(await tenant());
    expect(refused?.code).toBe("NOT_GRANTED");
    expect(refused?.message).toMatch(
      /^proposal \S+ stays pending: uses: of freeloader does not list plugin github/,
    );
    // Granted, the call goes on to github's function, whose schema then refuses the arguments.
    expect((await refusedIn(await tenant("freeloader-granted")))?.code).toBe("INVALID_INPUT");
  });

  it("lets through what uses: grants: the call runs and the delegation starts a child job", async () => {
    const granted = await tenant("freeloader-granted");
    const grabbed = await run(granted, "freeloader/grabber");
    expect(ofKind(grabbed, "function_left_out")).toEqual([]);
    expect(ofKind(grabbed, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { repo: "acme/site", function: "get_file" },
    });
    const found = await run(granted, "freeloader/finder");
    expect(ofKind(found, "tool_result")[0]?.data).toMatchObject({
      ok: true,
      result: { function: "get_file" },
    });
    const handed = await run(granted, "freeloader/handoff");
    expect(ofKind(handed, "child_job_started")[0]?.data).toMatchObject({ agent: "github/oz0-github" });
    const started = await runtime.jobs.start({
      tenant: granted,
      agent: "freeloader/fetch",
      input: "acme/site",
    });
    expect(await runtime.jobs.run(started.id, { tenant: started.tenant })).toMatchObject({
      status: "succeeded",
    });
  });
});
