// The official MCP conformance suite's server scenarios against `oz0 mcp serve` as a user starts
// it: over Streamable HTTP every scenario that needs no fixture of the suite's own (tool,
// resource and prompt names of its reference server) passes, and over stdio the handshake and a
// listing do (STDIO_IN_CI); and its client auth scenarios against oz0 as an MCP client.
// `npm run conformance` runs the whole suite on both transports.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_EXTENSIONS,
  AUTH_SCENARIOS,
  conformanceHome,
  FIXTURE_FREE,
  LOGIN_CLI_CLIENT,
  runClientConformance,
  runConformance,
  STDIO_IN_CI,
} from "../../../bench/mcp-conformance.js";

let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ home, cleanup } = await conformanceHome());
}, 60_000);
afterAll(() => cleanup());

describe("the MCP conformance suite against oz0 mcp serve", () => {
  it("passes every server scenario that needs none of the suite's fixtures, over http", {
    timeout: 240_000,
  }, async () => {
    const results = await runConformance(home, "http", FIXTURE_FREE.http);
    expect(results.map((result) => result.scenario).sort()).toEqual([...FIXTURE_FREE.http].sort());
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });

  it("passes the handshake and a listing over stdio, each session an oz0 mcp serve of its own", {
    timeout: 240_000,
  }, async () => {
    expect(FIXTURE_FREE.stdio).toEqual(expect.arrayContaining([...STDIO_IN_CI]));
    const results = await runConformance(home, "stdio", STDIO_IN_CI);
    expect(results.map((result) => result.scenario).sort()).toEqual([...STDIO_IN_CI].sort());
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });
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
