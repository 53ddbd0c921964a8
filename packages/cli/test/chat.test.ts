import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatInput } from "../src/commands/chat.js";
import { FIXTURES, homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0, types } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
  const installed = await oz0([
    "plugin",
    "install",
    join(FIXTURES, "narrator"),
    "--home",
    home,
    "--tenant",
    LAB,
  ]);
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(() => cleanup());

const original = chatInput.open;
afterEach(() => {
  chatInput.open = original;
});

describe("oz0 chat", () => {
  it("answers each message as a step of one job, streaming the text, and ends it with the last answer", async () => {
    types("hello", "how are you?");
    const result = await oz0(["chat", "helpdesk/chatty", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "Done (the offline test model answered without calling a function).\nYou said: how are you?\n",
    );
    const id = /the conversation is job (chatty-[0-9a-z]+)/.exec(result.stderr)?.[1];
    expect(id).toBeDefined();
    const job = (await oz0(["job", "get", id!, "--json", "--home", home, "--tenant", LAB])).json<
      RunShape & { mode: string }
    >();
    expect(job).toMatchObject({ status: "succeeded", mode: "chat", output: "You said: how are you?" });
  });

  it("prints each answer's text as the model writes it, in many writes, embedded and through a server", async () => {
    types("hi", "thanks");
    const writes: string[] = [];
    const result = await oz0(["chat", "narrator/chatter", "--home", home, "--tenant", LAB], {
      onStdout: (text) => writes.push(text),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("Hello there, how can I help?\nGlad to help again, goodbye.\n");
    const first = writes.slice(0, writes.indexOf("\n"));
    expect(first.length).toBeGreaterThan(1);
    expect(first.join("")).toBe("Hello there, how can I help?");
  });

  it("ends at an empty line or /exit", async () => {
    const typed = types("hello", "/exit", "never sent");
    const result = await oz0(["chat", "helpdesk/chatty", "--json", "--home", home, "--tenant", LAB]);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.answer).toMatch(/^Done/);
    expect(lines[1]).toMatchObject({ status: "succeeded", output: lines[0]?.answer });
    expect(typed.closed).toBe(true);
  });

  it("closes its input at an empty line, so the process can end", async () => {
    const typed = types("hello", "", "never sent");
    const result = await oz0(["chat", "helpdesk/chatty", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(0);
    expect(typed.closed).toBe(true);
  });

  it("exits non-zero when the chat's job fails, closing its input", async () => {
    const typed = types("ticket 7", "more");
    const result = await oz0(["chat", "helpdesk/short", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/failed: unplanned_model_call/);
    expect(typed.closed).toBe(true);
  });

  it("checks the address before the first prompt: a flow is not an agent", async () => {
    const installed = await oz0([
      "plugin",
      "install",
      join(import.meta.dirname, "../../../examples/merge-when-green"),
      "--home",
      home,
      "--tenant",
      "flows",
    ]);
    expect(installed.code).toBe(0);
    const typed = types();
    const result = await oz0([
      "chat",
      "merge-when-green/merge-when-green",
      "--home",
      home,
      "--tenant",
      "flows",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "oz0: merge-when-green/merge-when-green is a flow, not an agent; oz0 chat talks with an agent; oz0 run merge-when-green/merge-when-green runs the flow\n",
    );
    expect(typed.prompts).toBe(0);
  });

  it("checks the address against its owner before the first prompt", async () => {
    const typed = types();
    const result = await oz0(["chat", "clash-a/chatty", "--json", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: "OWNER_MISMATCH" } });
    expect(typed.prompts).toBe(0);
  });

  it("draws an answer of an agent with an output_schema as its card", async () => {
    types("ticket 7");
    const result = await oz0(["chat", "helpdesk/structured", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("queue  nowhere\n");
  });
});
