import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatInput } from "../src/commands/chat.js";
import { homeWithPlugins, LAB, type RunShape } from "./jobs-helpers.js";
import { oz0 } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await homeWithPlugins());
});
afterAll(() => cleanup());

const original = chatInput.lines;
afterEach(() => {
  chatInput.lines = original;
});

/** The person types these lines, then the input ends. */
function types(...lines: string[]): void {
  chatInput.lines = async function* () {
    yield* lines;
  };
}

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

  it("ends at an empty line or /exit", async () => {
    types("hello", "/exit", "never sent");
    const result = await oz0(["chat", "helpdesk/chatty", "--json", "--home", home, "--tenant", LAB]);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.answer).toMatch(/^Done/);
    expect(lines[1]).toMatchObject({ status: "succeeded", output: lines[0]?.answer });
  });

  it("exits non-zero when the chat's job fails", async () => {
    types("ticket 7", "more");
    const result = await oz0(["chat", "helpdesk/short", "--home", home, "--tenant", LAB]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/failed: unplanned_model_call/);
  });
});
