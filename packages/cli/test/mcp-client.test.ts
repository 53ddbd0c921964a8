// `oz0 mcp import` and `oz0 mcp login` as a user runs them: a Claude Desktop config becomes a
// plugin folder that installs, its secrets kept in the tenant (listed by name) and absent from
// every file written; a login is refused for a server oz0 starts itself; a remote tool whose
// oauth: grant needs no person gets its credentials through oz0 mcp secret set … oauth. (The
// OAuth flows run against the conformance suite's authorization servers: mcp-conformance.test.ts.)
import { mkdir, readFile, writeFile } from "node:fs/promises";
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
    const audit = await oz0(["--home", home, "--json", "audit", "list"]);
    expect(audit.stdout).toContain("desktop");
    expect(audit.stdout).not.toContain("ghp_example");
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

describe("an MCP tool whose oauth: grant needs no person, set up by an operator", () => {
  const KEY = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMG-not-a-real-key\n-----END PRIVATE KEY-----";

  it("takes the credential its grant reads from oz0 mcp secret set … oauth, lists it by name, refuses one it does not read, and refuses a login", async () => {
    const dir = join(home, "billing");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "plugin.yaml"),
      [
        "name: billing",
        "version: 1.0.0",
        "tools:",
        "  - id: invoices",
        "    mcp:",
        "      url: https://mcp.billing.example/mcp",
        "      oauth: { grant: client_credentials, client_id: oz0-billing, client_auth: private_key_jwt, signing_alg: ES256 }",
        "",
      ].join("\n"),
    );
    expect((await oz0(["--home", home, "plugin", "install", dir])).code).toBe(0);
    process.env.BILLING_KEY_PEM = KEY;
    try {
      const set = await oz0([
        "--home",
        home,
        "mcp",
        "secret",
        "set",
        "billing/invoices",
        "oauth",
        "private_key",
        "--from-env",
        "BILLING_KEY_PEM",
      ]);
      expect(set.code).toBe(0);
      expect(set.stdout).toBe(
        "set oauth private_key of billing/invoices; its server gets it from the next start\n",
      );
      const wrong = await oz0([
        "--home",
        home,
        "mcp",
        "secret",
        "set",
        "billing/invoices",
        "oauth",
        "client_secret",
        "--from-env",
        "BILLING_KEY_PEM",
      ]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain(
        "billing/invoices: oauth client_secret would never be read: its oauth: grant client_credentials with private_key_jwt reads private_key.",
      );
    } finally {
      delete process.env.BILLING_KEY_PEM;
    }
    const list = await oz0(["--home", home, "mcp", "secret", "list"]);
    expect(list.stdout).toMatch(/billing\/invoices\s+oauth private_key/);
    expect(list.stdout).not.toContain("not-a-real-key");
    const login = await oz0(["--home", home, "mcp", "login", "billing/invoices", "--no-browser"]);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain(
      "gets its OAuth tokens by client_credentials (its manifest's oauth:), with no person to log in",
    );
  });

  it("refuses at install an oauth: grant written wrong, naming the field, as lint does", async () => {
    const dir = join(home, "wiki");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "plugin.yaml"),
      [
        "name: wiki",
        "version: 1.0.0",
        "tools:",
        "  - id: pages",
        "    mcp: { url: 'https://mcp.wiki.example/mcp', oauth: { grant: cross_app_access, client_id: oz0 } }",
        "",
      ].join("\n"),
    );
    const installed = await oz0(["--home", home, "plugin", "install", dir]);
    expect(installed.code).not.toBe(0);
    expect(installed.stderr).toContain("grant: cross_app_access needs idp:");
    const linted = await oz0(["--home", home, "plugin", "lint", dir]);
    expect(linted.code).not.toBe(0);
    expect(linted.stdout + linted.stderr).toContain("grant: cross_app_access needs idp:");
  });
});
