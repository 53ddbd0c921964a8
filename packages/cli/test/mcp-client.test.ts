// `oz0 mcp import` and `oz0 mcp login` as a user runs them: a Claude Desktop config becomes a
// plugin folder that installs, its secrets kept in the tenant (listed by name) and absent from
// every file written; a login is refused for a server oz0 starts itself. (The OAuth flow runs
// against the conformance suite's authorization servers: mcp-conformance.test.ts.)
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

const DESKTOP = fileURLToPath(
  new URL("../../runtime/test/mcp/fixtures/import/claude_desktop_config.json", import.meta.url),
);

let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
});
afterAll(async () => cleanup());

describe("oz0 mcp import", () => {
  it("writes a plugin from Claude Desktop's config that installs, its secrets in the tenant only", async () => {
    const out = join(home, "desktop");
    const imported = await oz0([
      "--home",
      home,
      "--json",
      "mcp",
      "import",
      DESKTOP,
      "--name",
      "desktop",
      "--out",
      out,
    ]);
    expect(imported.code).toBe(0);
    expect(imported.json()).toMatchObject({
      plugin: "desktop",
      dir: out,
      tools: [{ id: "filesystem" }, { id: "github" }, { id: "brave-search", server: "Brave Search" }],
      secrets: [
        { tool: "github", kind: "env", name: "GITHUB_PERSONAL_ACCESS_TOKEN" },
        { tool: "brave-search", kind: "env", name: "BRAVE_API_KEY" },
      ],
    });
    expect(imported.stdout).not.toContain("ghp_example");
    expect(await readFile(join(out, "plugin.yaml"), "utf8")).not.toContain("ghp_example");
    const installed = await oz0(["--home", home, "plugin", "install", out]);
    expect(installed.code).toBe(0);
    const listed = await oz0(["--home", home, "--json", "mcp", "secret", "list"]);
    expect(listed.json()).toEqual([
      { tool: "desktop/brave-search", env: ["BRAVE_API_KEY"], headers: [], oauth: [] },
      { tool: "desktop/github", env: ["GITHUB_PERSONAL_ACCESS_TOKEN"], headers: [], oauth: [] },
    ]);
  });

  it("refuses a file it cannot read, or one of another shape, saying what is wrong", async () => {
    const missing = await oz0(["--home", home, "mcp", "import", join(home, "nope.json")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/cannot read .*nope\.json: ENOENT/);
    const vscode = join(home, "vscode.json");
    await import("node:fs/promises").then((fs) => fs.writeFile(vscode, '{"servers":{}}'));
    const wrong = await oz0(["--home", home, "mcp", "import", vscode]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/VS Code's format/);
  });

  it("refuses to log in to a local server, which oz0 starts itself and OAuth does not concern", async () => {
    const login = await oz0(["--home", home, "mcp", "login", "desktop/github", "--no-browser"]);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toMatch(/desktop\/github is a local server \(command:\)/);
  });
});
