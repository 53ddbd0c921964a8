// The official MCP conformance suite's server scenarios against `oz0 mcp serve` as a user starts
// it, over Streamable HTTP and over stdio: every scenario that needs no fixture of the suite's
// own (tool, resource and prompt names of its reference server) passes. `npm run conformance`
// prints the whole suite's results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_EXTENSIONS,
  AUTH_SCENARIOS,
  conformanceHome,
  FIXTURE_FREE,
  LOGIN_CLI_CLIENT,
  runClientConformance,
  runConformance,
} from "../../../bench/mcp-conformance.js";

let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ home, cleanup } = await conformanceHome());
}, 60_000);
afterAll(() => cleanup());

describe("the MCP conformance suite against oz0 mcp serve", () => {
  for (const transport of ["http", "stdio"] as const) {
    it(`passes every server scenario that needs none of the suite's fixtures, over ${transport}`, {
      timeout: 240_000,
    }, async () => {
      const results = await runConformance(home, transport, FIXTURE_FREE[transport]);
      expect(results.map((result) => result.scenario).sort()).toEqual([...FIXTURE_FREE[transport]].sort());
      expect(results.filter((result) => !result.passed)).toEqual([]);
    });
  }
});

describe("the MCP conformance suite's client auth scenarios against oz0 as an MCP client", () => {
  it("passes every auth scenario of the MCP authorization spec (discovery, registration, PKCE, scopes, refresh)", {
    timeout: 300_000,
  }, async () => {
    const core = AUTH_SCENARIOS.filter((scenario) => !AUTH_EXTENSIONS.has(scenario));
    const results = await runClientConformance(core);
    expect(results.map((result) => result.scenario).sort()).toEqual([...core].sort());
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });

  it("passes the extensions' scenarios: client credentials with client_secret_basic and private_key_jwt, and cross-app access, with no person", {
    timeout: 300_000,
  }, async () => {
    const extensions = [...AUTH_EXTENSIONS];
    expect(extensions.sort()).toEqual([
      "auth/client-credentials-basic",
      "auth/client-credentials-jwt",
      "auth/cross-app-access-complete-flow",
    ]);
    const results = await runClientConformance(extensions);
    expect(results.map((result) => result.scenario).sort()).toEqual(extensions);
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });

  it("passes the login scenarios when a person runs oz0 mcp login, which opens the browser (or, with --no-browser, prints the URL it follows), then oz0 tool call", {
    timeout: 300_000,
  }, async () => {
    const scenarios = ["auth/metadata-default", "auth/pre-registration", "auth/token-endpoint-auth-post"];
    const results = await runClientConformance(scenarios, LOGIN_CLI_CLIENT);
    expect(results.map((result) => result.scenario).sort()).toEqual(scenarios);
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });
});
