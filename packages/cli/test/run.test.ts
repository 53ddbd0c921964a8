import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
});
afterAll(() => cleanup());

/** `oz0 <args> --home <home>`, in tenant lab when `lab`. */
const run = (args: string[], lab = false) =>
  oz0([...args, "--home", home, ...(lab ? ["--tenant", LAB] : [])]);

describe("oz0 run", () => {
  it("runs support-triage/triage on the offline model with its tools and prints the answer", async () => {
    const result = await run(["run", "support-triage/triage", "ticket 7"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("billing\n");
    expect(result.stderr).toMatch(/^job triage-[0-9a-z]+ · support-triage\/triage\n/);
    expect(result.stderr).toContain("tool result  1.1 ok");
    expect(result.stderr).toContain('→ {"id":7,"queue":"billing"}');
  });

  it("prints { id, agent, status, output, failure } with --json", async () => {
    const result = await run(["run", "support-triage/triage", "ticket 7", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const job = result.json<RunShape>();
    expect(Object.keys(job)).toEqual(["id", "agent", "status", "output", "failure"]);
    expect(job).toMatchObject({
      agent: "support-triage/triage",
      status: "succeeded",
      output: "billing",
      failure: null,
    });
  });

  it("exits non-zero when the job fails, with the failure's kind and message", async () => {
    const result = await run(["run", "helpdesk/short", "ticket 7"], true);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /oz0: job short-[0-9a-z]+ failed: unplanned_model_call: the test model's script/,
    );
    const json = await run(["run", "helpdesk/short", "ticket 7", "--json"], true);
    expect(json.code).toBe(1);
    expect(json.json<RunShape>().failure?.kind).toBe("unplanned_model_call");
  });

  it("exits 2 when the job waits for a person, saying how to answer", async () => {
    const result = await run(["run", "helpdesk/asker", "ticket 7"], true);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/asks: Which queue\? — answer with oz0 job answer asker-[0-9a-z]+ TEXT/);
  });

  it("takes text from --input-file, and JSON for an agent with an input_schema", async () => {
    const text = join(home, "ticket.txt");
    await writeFile(text, "ticket 7");
    expect((await run(["run", "support-triage/triage", "--input-file", text])).stdout).toBe("billing\n");
    const good = join(home, "good.json");
    await writeFile(good, '{ "ticket": 7 }');
    const typed = await run(["run", "helpdesk/typed", "--input-file", good, "--json"], true);
    expect(typed.json<RunShape>().status).toBe("succeeded");
    const bad = join(home, "bad.json");
    await writeFile(bad, '{ "ticket": "seven" }');
    const refused = await run(["run", "helpdesk/typed", "--input-file", bad, "--json"], true);
    expect(refused.code).toBe(1);
    expect(refused.json<RunShape>().failure).toMatchObject({ kind: "invalid_input" });
  });

  it("starts the job and returns at once with --no-wait; oz0 job resume runs it", async () => {
    const started = await run(["run", "support-triage/triage", "ticket 7", "--no-wait", "--json"]);
    expect(started.code).toBe(0);
    const job = started.json<RunShape>();
    expect(job).toMatchObject({ status: "queued", output: null });
    const resumed = await run(["job", "resume", job.id, "--json"]);
    expect(resumed.json<RunShape>()).toMatchObject({ id: job.id, status: "succeeded", output: "billing" });
  });

  it("refuses an address whose plugin does not own the agent, naming the owner", async () => {
    const result = await run(["run", "clash-a/asker", "x"], true);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("oz0: clash-a/asker is not an agent of clash-a: asker is helpdesk's\n");
  });

  it("keeps tenants apart: an agent of another tenant is not found", async () => {
    const result = await run(["run", "helpdesk/asker", "x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^oz0: /);
  });
});
