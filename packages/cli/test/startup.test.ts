// oz0 --version and --help load neither the runtime nor the SDK: building the command tree
// is cheap, and a command's action loads what it needs when it runs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { oz0, THROUGH_SERVER, tempHome } from "./run-cli.js";

const loaded = vi.hoisted(() => new Set<string>());
vi.mock("@oz0/runtime", async (original) => {
  loaded.add("@oz0/runtime");
  return original();
});
vi.mock("@oz0/sdk", async (original) => {
  loaded.add("@oz0/sdk");
  return original();
});

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(() => cleanup());

describe("starting oz0", () => {
  it("prints the version and the help of any command without loading the runtime or the SDK", async () => {
    const version = await oz0(["--version"]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    for (const args of [
      ["--help"],
      ["job", "search", "--help"],
      ["provider", "set", "--help"],
      ["mcp", "--help"],
    ]) {
      const help = await oz0(args);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: oz0/);
    }
    // A refusal of the command line itself needs neither.
    expect((await oz0(["job", "search", "--limit", "abc"])).code).toBe(1);
    expect([...loaded]).toEqual([]);
    // The mocks do see a command that needs the runtime; through a server, the CLI never loads it.
    expect((await oz0(["plugin", "list", "--home", home])).code).toBe(0);
    expect(loaded.has("@oz0/runtime")).toBe(!THROUGH_SERVER);
  });
});
