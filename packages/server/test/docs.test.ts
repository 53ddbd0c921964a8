// The reference page at /v1/docs works offline: the page and every script, style and image it
// names are served by this server (Swagger UI from the installed swagger-ui-dist), and its
// Content-Security-Policy lets it load nothing from anywhere else.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestServer, testServer } from "./helpers.js";

let test: TestServer;
beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

/** Every URL the page loads: scripts' src, and stylesheets' and icons' href. */
function loadedUrls(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
  const links = [...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]!);
  return [...scripts, ...links];
}

/** The policy's directives, each with its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((entry) => entry.trim().split(/\s+/))
      .filter((words) => words[0] !== undefined && words[0] !== "")
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("the reference page", () => {
  it("is served at /v1/docs and reads the OpenAPI document from this server", async () => {
    const response = await test.request("/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const urls = loadedUrls(await response.text());
    expect(urls).toContain("/v1/docs/swagger-ui-bundle.js");
    const start = await test.request("/v1/docs/start.js");
    const script = await start.text();
    expect(script).toContain('url: "/v1/openapi.json"');
    // Swagger UI's validator badge would ask another site about the document.
    expect(script).toContain("validatorUrl: null");
  });

  it("loads every script, style and icon from this server, each answering 200 with its type", async () => {
    const html = await (await test.request("/v1/docs")).text();
    const urls = loadedUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) {
      // Local: a path on this server, not another origin or a protocol-relative URL.
      expect({ url, local: url.startsWith("/") && !url.startsWith("//") }).toEqual({ url, local: true });
      const response = await test.request(url);
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      const type = response.headers.get("content-type") ?? "";
      const expected = url.endsWith(".js")
        ? "text/javascript"
        : url.endsWith(".css")
          ? "text/css"
          : "image/png";
      expect({ url, type }).toEqual({ url, type: expect.stringContaining(expected) });
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("serves Swagger UI's files as the installed swagger-ui-dist has them", async () => {
    const dist = join(import.meta.dirname, "../../../node_modules/swagger-ui-dist");
    const served = new Uint8Array(await (await test.request("/v1/docs/swagger-ui-bundle.js")).arrayBuffer());
    expect(Buffer.from(served).equals(await readFile(join(dist, "swagger-ui-bundle.js")))).toBe(true);
    expect((await test.request("/v1/docs/index.html")).status).toBe(404);
    expect((await test.request("/v1/docs/../package.json")).status).toBe(404);
  });

  it("has no inline script or style, which its policy would refuse", async () => {
    const html = await (await test.request("/v1/docs")).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style\b/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  it("has a Content-Security-Policy that allows only this origin, on the page and on its files", async () => {
    for (const path of ["/v1/docs", "/v1/docs/start.js", "/v1/docs/swagger-ui.css"]) {
      const policy = (await test.request(path)).headers.get("content-security-policy") ?? "";
      const parsed = directives(policy);
      expect({ path, defaults: parsed.get("default-src") }).toEqual({ path, defaults: ["'none'"] });
      for (const name of ["script-src", "style-src", "connect-src", "font-src"]) {
        expect({ path, name, sources: parsed.get(name) }).toEqual({ path, name, sources: ["'self'"] });
      }
      // Swagger UI's stylesheet draws its icons as data: URIs; no image comes from elsewhere.
      expect(parsed.get("img-src")).toEqual(["'self'", "data:"]);
      expect(parsed.get("frame-ancestors")).toEqual(["'none'"]);
      expect(policy).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
    }
  });

  it("leaves the API's own policy closed: an API answer loads nothing", async () => {
    const policy = (await test.request("/v1/openapi.json")).headers.get("content-security-policy") ?? "";
    expect(directives(policy).get("default-src")).toEqual(["'none'"]);
  });
});

describe("installing Swagger UI", () => {
  it("turns off Scarf's install analytics, which swagger-ui-dist's dependency would send", async () => {
    const root = JSON.parse(await readFile(join(import.meta.dirname, "../../../package.json"), "utf8")) as {
      scarfSettings?: { enabled?: boolean };
    };
    expect(root.scarfSettings).toEqual({ enabled: false });
  });
});
