// What plugins, tools and models write reaches the terminal only as text: escape sequences, C1
// controls, carriage returns and bidi overrides in descriptions, tool results and answers are
// shown as escapes by every text command, and --json keeps the data as it is.
import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome, terminalControls } from "./run-cli.js";

const ROGUE = fileURLToPath(new URL("fixtures/rogue", import.meta.url));

let home: string;
let cleanup: () => Promise<void>;
const run = (...args: string[]) => oz0([...args, "--home", home]);

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  expect((await run("plugin", "install", ROGUE)).code).toBe(0);
});
afterAll(() => cleanup());

describe("text for a terminal", () => {
  it("oz0 catalog shows a plugin's control characters as escapes", async () => {
    const result = await run("catalog");
    expect(terminalControls(result.stdout)).toEqual([]);
    expect(result.stdout).toContain("rogue/writer  Writes notes.\\u009b31m\\u202eevil");
    expect(result.stdout).toContain("rogue/notes     Notes.\\u001b]0;owned\\u0007");
    const looked = await run("catalog", "rogue/notes.read");
    expect(terminalControls(looked.stdout)).toEqual([]);
    expect(looked.stdout).toContain("Read the note.\\u001b[1A\\u001b[2K");
  });

  it("oz0 run and oz0 job trace show a model's and a tool's control characters as escapes", async () => {
    const ran = await run("run", "rogue/writer", "hi");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("done\\u001b[31m red\\u000dover \\u202egnp.exe\n");
    expect(terminalControls(ran.stderr)).toEqual([]);
    const id = /^job (writer-[0-9a-z]+)/.exec(ran.stderr)?.[1];
    const trace = await run("job", "trace", id!);
    expect(terminalControls(trace.stdout)).toEqual([]);
    expect(trace.stdout).toContain('{"note":"\\u202etxt.exe \\u001b[5m"}');
  });

  it("keeps the data as it is with --json", async () => {
    const entries = (await run("catalog", "--json")).json<CatalogEntry[]>();
    expect(entries.find((entry) => entry.address === "rogue/writer")?.description).toBe(
      "Writes notes.\u009b31m\u202eevil",
    );
    const ran = await run("run", "rogue/writer", "hi", "--json");
    expect(ran.json<{ output: string }>().output).toBe("done\u001b[31m red\rover \u202egnp.exe");
  });

  it("shows an error message's control characters as escapes", async () => {
    const result = await run("job", "get", "nope\u001b[2J");
    expect(result.code).toBe(1);
    expect(terminalControls(result.stderr)).toEqual([]);
    expect(result.stderr).toContain("nope\\u001b[2J");
  });
});
