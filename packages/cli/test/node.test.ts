// `oz0 node list`, `oz0 node pool …`, `oz0 job retry`, and what `oz0 job get` says of a job's
// queue, its runs' nodes, and a queue no live node serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  // A store on which no node runs, in both passes: a server would run one.
  ({ home, cleanup } = await homeWithPlugins({ embedded: true }));
});
afterAll(() => cleanup());

const run = (args: string[]) => oz0([...args, "--home", home, "--tenant", LAB]);

describe("oz0 job get", () => {
  it("shows the job's queue and the node that ran each attempt", async () => {
    const ran = await run(["run", "helpdesk/triage", "ticket 7", "--json"]);
    const id = ran.json<RunShape>().id;
    const shown = await run(["job", "get", id]);
    expect(shown.stdout).toContain("  queue    pool.helpdesk\n");
    expect(shown.stdout).toMatch(/\n {2}run {6}attempt 1 on node \S+ at \d{4}-/);
    const json = (await run(["job", "get", id, "--json"])).json<Record<string, unknown>>();
    expect(json).toMatchObject({ queue: "pool.helpdesk", unserved: null, runs: [{ attempt: 1 }] });
  });

  it("says so when no live node serves a queued job's queue, naming the node to start", async () => {
    const queued = await run(["run", "helpdesk/triage", "ticket 8", "--no-wait", "--json"]);
    const id = queued.json<RunShape>().id;
    const shown = await run(["job", "get", id]);
    expect(shown.stdout).toContain(
      "  unserved no live node serves queue pool.helpdesk, so the job waits; start one with oz0 node\n",
    );
    expect((await run(["job", "cancel", id])).code).toBe(0);
  });
});

describe("oz0 node pool", () => {
  it("maps a plugin to a shared pool with a selector, lists it, and takes it back", async () => {
    const set = await run(["node", "pool", "set", "helpdesk", "shared-gpu", "--labels", "gpu"]);
    expect(set.stdout).toBe("plugin helpdesk runs on pool.shared-gpu.gpu from its next job\n");
    const queued = await run(["run", "helpdesk/triage", "ticket 9", "--no-wait", "--json"]);
    const id = queued.json<RunShape>().id;
    expect((await run(["job", "get", id, "--json"])).json<Record<string, unknown>>()).toMatchObject({
      queue: "pool.shared-gpu.gpu",
      unserved: expect.stringContaining("start one with oz0 node --pool shared-gpu --labels gpu"),
    });
    expect((await run(["node", "pool", "list"])).stdout).toMatch(
      /^helpdesk → pool\.shared-gpu\.gpu \(set by cli:/,
    );
    expect((await run(["node", "pool", "remove", "helpdesk"])).code).toBe(0);
    expect((await run(["node", "pool", "list"])).stdout).toContain("no plugin is mapped to a shared pool");
    const again = await run(["node", "pool", "remove", "helpdesk"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("plugin helpdesk is not mapped to a shared pool");
    expect((await run(["job", "cancel", id])).code).toBe(0);
  });

  it("refuses a plugin that is not installed and a pool name that is not a name", async () => {
    expect((await run(["node", "pool", "set", "nowhere", "p"])).code).toBe(1);
    const bad = await run(["node", "pool", "set", "helpdesk", "a.b"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("pool name 'a.b' must be");
  });
});

describe("oz0 node list", () => {
  it("lists no nodes on a store none ran on, and refuses labels that are not names", async () => {
    expect((await run(["node", "list"])).stdout).toBe("no nodes\n");
    expect((await run(["node", "list", "--json"])).json()).toEqual([]);
    const bad = await run(["node", "--labels", "GPU"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("label name 'GPU' must be");
  });
});

describe("oz0 job retry", () => {
  it("refuses a job that is not dead-lettered", async () => {
    const ran = await run(["run", "helpdesk/triage", "ticket 10", "--json"]);
    const retried = await run(["job", "retry", ran.json<RunShape>().id]);
    expect(retried.code).toBe(1);
    expect(retried.stderr).toContain("is succeeded, not dead-lettered");
  });
});
