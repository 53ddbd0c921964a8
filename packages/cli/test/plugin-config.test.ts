// `oz0 plugin config`: an operator sets a plugin's config in a tenant, checked by the plugin's
// admin spec, and the plugin's tools run with it: std's http tool reaches a loopback host only
// once the operator allows it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oz0, tempHome } from "./run-cli.js";

let home: string;
let cleanup: () => Promise<void>;
let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  server = createServer((_request, response) => {
    hits += 1;
    response.end("hello from the intranet");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

const run = (...args: string[]) => oz0([...args, "--home", home]);

async function fetchIntranet() {
  const result = await run(
    "--json",
    "tool",
    "call",
    "std/http.request",
    "--args",
    JSON.stringify({ url: `http://127.0.0.1:${port}/` }),
  );
  return result.json<{
    ok: boolean;
    result?: { status_code: number; body: unknown };
    error?: { code: string };
  }>();
}

describe("oz0 plugin config", () => {
  it("shows a plugin's defaults before anything is set", async () => {
    const shown = await run("--json", "plugin", "config", "std");
    expect(shown.json()).toEqual({
      plugin: "std",
      set: false,
      config: { http: { allowHosts: [] }, text: { regexTimeoutMs: 1000 } },
      // std's admin spec checks its config with validate() and declares no schema.
      schema: null,
    });
  });

  it("refuses a config the plugin's admin spec finds invalid, naming the field, and stores nothing", async () => {
    const refused = await run("plugin", "config", "std", "--set", '{"text": {"regexTimeoutMs": 1}}');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the config of std was not stored");
    expect(refused.stderr).toContain("text.regexTimeoutMs:");
    expect((await run("--json", "plugin", "config", "std")).json()).toMatchObject({ set: false });
  });

  it("refuses --set that is not JSON, saying so", async () => {
    const refused = await run("plugin", "config", "std", "--set", "{allowHosts");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^oz0: --set takes JSON/);
  });

  it("gives the plugin's tools the config: a loopback host is refused until an operator allows it", async () => {
    const before = await fetchIntranet();
    expect(before.ok).toBe(false);
    expect(before.error?.code).toBe("POLICY_VIOLATION");
    expect(hits).toBe(0);

    const set = await run(
      "--json",
      "plugin",
      "config",
      "std",
      "--set",
      JSON.stringify({ http: { allowHosts: [`127.0.0.1:${port}`] } }),
    );
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({ set: true, config: { http: { allowHosts: [`127.0.0.1:${port}`] } } });

    const allowed = await fetchIntranet();
    expect(allowed.ok).toBe(true);
    expect(allowed.result?.status_code).toBe(200);
    expect(hits).toBe(1);

    expect((await run("plugin", "config", "std", "--unset")).code).toBe(0);
    expect((await fetchIntranet()).ok).toBe(false);
    expect(hits).toBe(1);
  });

  it("refuses config for a plugin that registers no admin spec", async () => {
    const dir = new URL("../../../examples/support-triage", import.meta.url).pathname;
    expect((await run("plugin", "install", dir)).code).toBe(0);
    const refused = await run("plugin", "config", "support-triage", "--set", "{}");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("support-triage registers no admin spec, so it takes no config");
  });
});
