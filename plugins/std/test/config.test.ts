// The std plugin's operator settings: allowed hosts for http, the regex deadline for text.
import { describe, expect, it } from "vitest";
import { DEFAULT_REGEX_TIMEOUT_MS, readStdConfig } from "../src/index.js";

describe("the std plugin's config", () => {
  it("defaults to no allowed hosts and a regex deadline of 1000 ms", () => {
    expect(readStdConfig({})).toEqual({
      http: { allowHosts: [] },
      text: { regexTimeoutMs: DEFAULT_REGEX_TIMEOUT_MS },
    });
  });

  it("reads allowHosts entries as host or host:port, normalised as the URL parser writes hosts", () => {
    const { allowHosts } = readStdConfig({
      http: { allowHosts: ["Intranet.Example", "10.0.0.5:80", "[FD00::1]:8443", "2130706433:99"] },
    }).http;
    expect(allowHosts).toEqual([
      { hostname: "intranet.example" },
      { hostname: "10.0.0.5", port: 80 },
      { hostname: "[fd00::1]", port: 8443 },
      { hostname: "127.0.0.1", port: 99 },
    ]);
  });

  it("refuses an allowHosts entry with a scheme, a path, credentials, a bad port or a bare IPv6 address", () => {
    for (const entry of ["http://x", "x/path", "user@x", "x:0", "x:70000", "fd00::1", "x?q", ""]) {
      expect(() => readStdConfig({ http: { allowHosts: [entry] } }), entry).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          data: {
            issues: [{ path: "http.allowHosts.0", message: expect.stringContaining("is not a host") }],
          },
        }),
      );
    }
  });

  it("refuses an unknown setting in a tool's section, so a misspelt one is not ignored", () => {
    expect(() => readStdConfig({ http: { allowhosts: ["x"] } })).toThrow("http: Unrecognized key");
  });
});
