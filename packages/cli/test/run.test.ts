import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { interrupts } from "../src/commands/job.js";
import { stdinInput } from "../src/commands/run.js";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
});
afterAll(() => cleanup());

const originalInterrupts = interrupts.on;
const originalStdin = stdinInput.read;
afterEach(() => {
  interrupts.on = originalInterrupts;
  stdinInput.read = originalStdin;
});

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

  it("streams the model's text on stderr as it arrives, before the step's line", async () => {
    const result = await run(["run", "support-triage/triage", "ticket 7"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\n {2}billing\n {2}model {8}step 3 /);
    expect(result.stdout).toBe("billing\n");
  });

  it("reads the input from stdin with --input-file -", async () => {
    stdinInput.read = async () => '{ "ticket": 7 }';
    const result = await run(["run", "helpdesk/typed", "--input-file", "-", "--json"], true);
    expect(result.code).toBe(0);
    expect(result.json<RunShape>().status).toBe("succeeded");
  });

  it("refuses an --input-file that cannot be read, and input given twice, in the one error shape", async () => {
    const missing = await run(["run", "support-triage/triage", "--input-file", "/no/such/file", "--json"]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toEqual({
      error: {
        code: "INVALID_INPUT",
        message:
          "--input-file /no/such/file: there is no such file; give a file to read the input from, or - for stdin",
        data: { issues: [{ path: "input-file", message: "cannot be read" }] },
        side: "user",
        status: 422,
        retryable: false,
      },
    });
    const twice = await run(["run", "support-triage/triage", "ticket 7", "--input-file", "/no/such/file"]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toBe("oz0: give the input as the argument or with --input-file, not both\n");
  });
});

// What a run does on a store where no worker runs, and what Ctrl-C does to the run this process
// makes: on a home whose commands stay embedded in the second pass too, since a server always
// runs a worker (through a server, Ctrl-C stops following; server-client.test.ts).
describe("oz0 run on a store with no live worker", () => {
  let idleHome: string;
  let idleCleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ home: idleHome, cleanup: idleCleanup } = await homeWithPlugins({ embedded: true }));
  });
  afterAll(() => idleCleanup());
  const idle = (args: string[]) => oz0([...args, "--home", idleHome]);

  it("with --no-wait and no live worker, leaves the job queued and says what runs it", async () => {
    const started = await idle(["run", "support-triage/triage", "ticket 7", "--no-wait"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(
      /^job triage-[0-9a-z]+ is queued; no worker is running: oz0 worker, or oz0 job resume triage-[0-9a-z]+, runs it\n$/,
    );
  });

  it("lets the job go at Ctrl-C, saying how to resume, trace or cancel it; a cancel then takes effect at once", async () => {
    let interrupt = () => {};
    interrupts.on = (handler) => {
      interrupt = handler;
      return () => {};
    };
    const result = await oz0(["run", "support-triage/triage", "ticket 7", "--home", idleHome], {
      onStderr: (text) => {
        if (text.includes("tool call")) interrupt();
      },
    });
    expect(result.code).toBe(130);
    expect(result.stdout).toBe("");
    const id = /^job (triage-[0-9a-z]+)/.exec(result.stderr)?.[1];
    expect(result.stderr).toContain(
      [
        `oz0: job ${id} goes on: it is not cancelled, and it is queued to go on from where it stopped`,
        `  oz0 job resume ${id}   take it up again here, following its steps to its end`,
        `  oz0 job trace ${id}    see what it has done so far`,
        `  oz0 job cancel ${id}   cancel it`,
        "",
      ].join("\n"),
    );
    const job = (await idle(["job", "get", id!, "--json"])).json<RunShape>();
    expect(job.status).toBe("queued");
    const cancelled = await idle(["job", "cancel", id!]);
    expect(cancelled.stdout).toMatch(new RegExp(`^job ${id} cancelled by cli:`));
    expect((await idle(["job", "get", id!, "--json"])).json<RunShape>().status).toBe("cancelled");
  });

  it("takes a job let go at Ctrl-C up again with oz0 job resume, at once and to its end", async () => {
    let interrupt = () => {};
    interrupts.on = (handler) => {
      interrupt = handler;
      return () => {};
    };
    const started = await oz0(["run", "support-triage/triage", "ticket 7", "--home", idleHome], {
      onStderr: (text) => {
        if (text.includes("model        step 1")) interrupt();
      },
    });
    expect(started.code).toBe(130);
    const id = /^job (triage-[0-9a-z]+)/.exec(started.stderr)?.[1];
    const resumed = await idle(["job", "resume", id!]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("billing\n");
    expect(resumed.stderr).not.toContain("waiting for the lease");
  });

  it("starts the job and returns at once with --no-wait; oz0 job resume runs it", async () => {
    const started = await idle(["run", "support-triage/triage", "ticket 7", "--no-wait", "--json"]);
    expect(started.code).toBe(0);
    const job = started.json<RunShape>();
    expect(job).toMatchObject({ status: "queued", output: null });
    const resumed = await idle(["job", "resume", job.id, "--json"]);
    expect(resumed.json<RunShape>()).toMatchObject({ id: job.id, status: "succeeded", output: "billing" });
  });
});
