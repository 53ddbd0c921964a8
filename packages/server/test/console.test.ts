// What the web console reads and how it is served: an agent's detail (its schemas, model and
// tools by address; an agent out of scope answered as missing), a plugin config's schema, the
// console's pages from its build with a policy that loads nothing from elsewhere, and a clear
// answer when the console is not built.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAB, type TestServer, testServer } from "./helpers.js";

let test: TestServer;
let built: string;
beforeAll(async () => {
  built = await mkdtemp(join(tmpdir(), "oz0-console-build-"));
  await mkdir(join(built, "assets"));
  await writeFile(
    join(built, "index.html"),
    '<!doctype html><script type="module" src="/assets/app-1.js"></script>',
  );
  await writeFile(join(built, "assets", "app-1.js"), "console.log('console')");
  test = await testServer({ console: built });
});
afterAll(async () => {
  await test.close();
  await rm(built, { recursive: true, force: true });
});

describe("an agent's detail", () => {
  it("gives its input and output schemas, model, runtime and tools by address", async () => {
    const typed = await test.request(`/v1/t/${LAB}/agents/helpdesk/typed`, { key: "viewer" });
    expect(typed.status).toBe(200);
    expect(await typed.json()).toMatchObject({
      address: "helpdesk/typed",
      runtime: "oz0",
      model: { use: "test" },
      inputSchema: { type: "object", required: ["ticket"] },
      outputSchema: null,
    });
    const triage = (await (
      await test.request(`/v1/t/${LAB}/agents/helpdesk/triage`, { key: "viewer" })
    ).json()) as {
      tools: string[];
      inputSchema: unknown;
      model: { script?: string };
    };
    expect(triage.tools).toEqual(["helpdesk/tickets.lookup", "helpdesk/tickets.assign"]);
    expect(triage.inputSchema).toBeNull();
    expect(triage.model.script).toBe("scripts/triage.yaml");
  });

  it("answers an agent outside the caller's scope exactly as one that does not exist", async () => {
    const hidden = await test.request(`/v1/t/${LAB}/agents/helpdesk/triage`, { key: "scoped" });
    const missing = await test.request(`/v1/t/${LAB}/agents/helpdesk/nobody`, { key: "scoped" });
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    const shown = await test.request(`/v1/t/${LAB}/agents/helpdesk/asker`, { key: "scoped" });
    expect(shown.status).toBe(200);
  });
});

describe("serving the console", () => {
  it("answers every page under /t/ with the built index.html, under a policy that loads only the server's own files", async () => {
    for (const path of ["/", `/t/${LAB}/agents`, `/t/${LAB}/agents/helpdesk/triage`, `/t/${LAB}/jobs/abc`]) {
      const page = await fetch(`${test.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain("/assets/app-1.js");
      const policy = page.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).not.toContain("http");
    }
    const script = await fetch(`${test.url}/assets/app-1.js`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(script.headers.get("cache-control")).toContain("immutable");
  });

  it("serves no file outside its build", async () => {
    for (const path of [
      "/assets/..%2Findex.html",
      "/assets/%2e%2e%2f%2e%2e%2fpackage.json",
      "/assets/.hidden",
    ]) {
      expect((await fetch(`${test.url}${path}`)).status, path).toBe(404);
    }
  });

  it("says to build the console when its build is missing", async () => {
    const bare = await testServer({ console: join(built, "missing") });
    try {
      const page = await fetch(`${bare.url}/t/${LAB}/agents`);
      expect(page.status).toBe(404);
      const body = (await page.json()) as { error: { message: string } };
      expect(body.error.message).toContain("npm run build");
    } finally {
      await bare.close();
    }
  });
});
