// A remote A2A agent from the command line: its key set with oz0 remote secret, a run at the
// outside agent (the loopback fixture written with the official SDK), its question answered
// with oz0 job answer, and its steps in oz0 job trace under runtime remote:a2a.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureAgent, startFixtureAgent } from "../../runtime/test/runtimes/a2a/agent-server.js";
import { oz0, tempHome } from "./run-cli.js";

/** Where a node's operator lists the outside agents' endpoints (docs/runtimes.md). */
const ENDPOINTS_VARIABLE = "OZ0_A2A_ENDPOINTS";
const PARTNER = join(import.meta.dirname, "../../runtime/test/fixtures/runtimes/a2a");

let agent: FixtureAgent;
let home: string;
let cleanup: () => Promise<void>;
const saved = process.env[ENDPOINTS_VARIABLE];
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  agent = await startFixtureAgent();
  process.env[ENDPOINTS_VARIABLE] = `partner/painter=${agent.url}`;
  ({ home, cleanup } = await tempHome());
  const installed = await run("plugin", "install", PARTNER);
  if (installed.code !== 0) throw new Error(installed.stderr);
});

afterAll(async () => {
  if (saved === undefined) delete process.env[ENDPOINTS_VARIABLE];
  else process.env[ENDPOINTS_VARIABLE] = saved;
  await agent.close();
  await cleanup();
});

describe("a remote:a2a agent from the command line", () => {
  it("runs with the key oz0 remote secret set keeps, and oz0 job trace shows its remote steps", async () => {
    process.env.OZ0_TEST_PARTNER_TOKEN = "tok-cli-456";
    try {
      expect(
        (await run("remote", "secret", "set", "partner-token", "--from-env", "OZ0_TEST_PARTNER_TOKEN"))
          .stdout,
      ).toBe("set remote secret partner-token\n");
    } finally {
      delete process.env.OZ0_TEST_PARTNER_TOKEN;
    }
    expect((await run("remote", "secret", "list")).stdout).toBe("partner-token\n");
    const ran = await run("run", "partner/painter", "echo from the shell", "--json");
    expect(ran.json()).toMatchObject({ status: "succeeded", output: "echo: from the shell" });
    expect(agent.received.at(-1)?.headers.authorization).toBe("Bearer tok-cli-456");
    const id = ran.json<{ id: string }>().id;
    const trace = (await run("job", "trace", id)).stdout;
    expect(trace).toContain("runtime remote:a2a");
    // Each step names its runtime, its model and (by the claim before it) the node that ran it.
    expect(trace).toMatch(/claimed {6}attempt 1 by \S+/);
    expect(trace).toMatch(
      /model {8}step 1 · on remote:a2a · a2a:partner\/painter · 0 ms · 0\+0 tokens → task/,
    );
    expect(trace).toContain("tool call    remote.1 partner/painter.send_message");
    expect(trace).toMatch(/remote task {2}remote\.1 \S+ completed/);
    expect(trace).not.toContain("tok-cli-456");
  });

  it("waits on the outside agent's question, which oz0 job answer answers", async () => {
    const asked = await run("run", "partner/painter", "ask", "--json");
    expect(asked.json()).toMatchObject({ status: "waiting" });
    const id = asked.json<{ id: string }>().id;
    expect((await run("job", "get", id, "--json")).json()).toMatchObject({
      waitingFor: { kind: "answer", question: "Which colour?" },
    });
    // oz0 job answer sends the answer as the task's next message and runs the job on.
    const answered = await run("job", "answer", id, "green", "--json");
    expect(answered.json()).toMatchObject({ status: "succeeded", output: "colour: green" });
    expect(agent.received.slice(-2).map((entry) => entry.text)).toEqual(["ask", "green"]);
  });
});
