// Adding, removing and re-keying routines, which needs no worker: these run in both passes,
// embedded and through a server (routine.test.ts keeps what a store without a worker does).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const CLOCKWORK = join(import.meta.dirname, "../../runtime/test/fixtures/routines/clockwork");

let home: string;
let cleanup: () => Promise<void>;
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const installed = await run("plugin", "install", CLOCKWORK);
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(() => cleanup());

describe("oz0 routine add, remove and secret", () => {
  it("adds a tenant routine, lists it, and removes it, as text and --json", async () => {
    const added = await run(
      "routine",
      "add",
      "weekly",
      "--run",
      "clockwork/summarizer",
      "--schedule",
      "0 0 6 * * 1",
      "--max-turns",
      "2",
      "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.json()).toMatchObject({
      name: "weekly",
      source: "tenant",
      run: "clockwork/summarizer",
      schedule: "0 0 6 * * 1",
      limits: { max_turns: 2 },
    });
    const again = await run(
      "routine",
      "add",
      "weekly",
      "--run",
      "clockwork/summarizer",
      "--event",
      "webhook",
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("has a routine weekly already");
    const listed = await run("routine", "list", "--json");
    expect(listed.json<{ name: string }[]>().map((one) => one.name)).toContain("weekly");
    const removed = await run("routine", "remove", "weekly");
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe("routine weekly removed\n");
    const gone = await run("routine", "remove", "weekly");
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("has no routine weekly");
  });

  it("refuses a routine that is not valid, in the schema's words, and one whose tools are not its agent's", async () => {
    const bad = await run(
      "routine",
      "add",
      "x",
      "--run",
      "clockwork/summarizer",
      "--event",
      "webhook",
      "--overlap",
      "never",
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("overlap: overlap must be one of skip, queue, allow, not 'never'");
    const tools = await run(
      "routine",
      "add",
      "x",
      "--run",
      "clockwork/reporter",
      "--event",
      "webhook",
      "--tools",
      "notes.burn",
    );
    expect(tools.code).toBe(1);
    expect(tools.stderr).toContain("lists notes.burn under tools:, which clockwork/reporter may not call");
  });

  it("refuses removing a plugin's routine, and says how to stop it instead", async () => {
    const removed = await run("routine", "remove", "clockwork/read-only");
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain("pause it (oz0 routine pause clockwork/read-only)");
  });

  it("shows a webhook routine's new secret once, and list then says it is set", async () => {
    const made = await run("routine", "secret", "clockwork/read-only", "--json");
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toEqual({
      routine: "clockwork/read-only",
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    const listed = await run("routine", "list", "--json");
    expect(
      listed.json<{ name: string; secret: boolean }[]>().find((one) => one.name === "clockwork/read-only")
        ?.secret,
    ).toBe(true);
    expect(listed.stdout).not.toContain(made.json<{ secret: string }>().secret);
  });

  it("keeps a webhook routine's secret out of the audit log", async () => {
    const made = await run("routine", "secret", "clockwork/read-only", "--json");
    expect(made.code, made.stderr).toBe(0);
    const secret = made.json<{ secret: string }>().secret;
    const audit = await run("audit", "list", "--json");
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("routines.secret");
    expect(audit.stdout).not.toContain(secret);
  });
});
