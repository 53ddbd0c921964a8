// The http tool's SSRF protection, shown against a real loopback server: refused by default, reached when allowed.
import { afterEach, describe, expect, it } from "vitest";
import { call, callError, loadStd } from "../helpers.js";
import { closeServers, fakeResolver, startServer } from "./server.js";

afterEach(closeServers);

/** A host the fake resolver answers for with a public address, so no DNS is asked. */
const PUBLIC = "1.1.1.1";

async function refusal(
  args: Record<string, unknown>,
  config: Record<string, unknown> = {},
  resolver = fakeResolver({}),
) {
  const host = await loadStd({ http: { resolve: resolver } });
  return callError(host, "http.request", args, config);
}

describe("the http tool's SSRF protection", () => {
  it("refuses a loopback server by default and sends it nothing, saying why", async () => {
    const server = await startServer();
    const error = await refusal({ url: server.url("/secret") });
    expect(error.code).toBe("POLICY_VIOLATION");
    expect(error.data).toMatchObject({
      contractId: "ssrf",
      details: { url: server.url("/secret"), host: "127.0.0.1" },
    });
    expect(error.message).toBe(
      `ssrf refused: ${server.url("/secret")}, because 127.0.0.1 is a loopback address of this machine (127.0.0.0/8). Nothing was sent to it. The http tool reaches only public addresses; an operator can allow an internal host with the std plugin's http.allowHosts setting.`,
    );
    expect(server.connections()).toBe(0);
  });

  it("reaches a loopback server an operator allowed, so the refusal above is not vacuous", async () => {
    const server = await startServer((_, res) => {
      res.setHeader("content-type", "application/json");
      res.end('{"hello": "world"}');
    });
    const host = await loadStd();
    const result = await call(
      host,
      "http.request",
      { url: server.url("/data") },
      { http: { allowHosts: [server.hostPort] } },
    );
    expect(result).toMatchObject({ status: "ok", status_code: 200, body: { hello: "world" } });
    expect(server.connections()).toBe(1);
  });

  it("allows a host only on the port the operator named", async () => {
    const server = await startServer();
    const error = await refusal({ url: server.url() }, { http: { allowHosts: ["127.0.0.1:1"] } });
    expect(error.code).toBe("POLICY_VIOLATION");
    expect(server.connections()).toBe(0);
  });

  it("refuses every spelling of a loopback or metadata address before resolving anything", async () => {
    const resolver = fakeResolver({});
    const spellings = [
      "http://localhost/",
      "http://LOCALHOST./",
      "http://app.localhost/",
      "http://127.0.0.1/",
      "http://127.1/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0x7f000001/",
      "http://017700000001/",
      "http://0177.0.0.1/",
      "http://127.0.0.1./",
      "http://%31%32%37.0.0.1/",
      "http://0/",
      "http://0.0.0.0/",
      "http://[::1]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[::127.0.0.1]/",
      "http://[64:ff9b::127.0.0.1]/",
      "http://[2002:7f00:1::]/",
      "http://[fe80::1]/",
      "http://[fd00::1]/",
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/",
      "http://[::ffff:169.254.169.254]/",
      "http://10.0.0.1/",
      "http://172.16.0.1/",
      "http://192.168.0.1/",
      "http://100.64.0.1/",
      "https://10.0.0.1:8443/",
    ];
    for (const url of spellings) {
      const error = await refusal({ url }, {}, resolver);
      expect(error.code, url).toBe("POLICY_VIOLATION");
      expect(error.message, url).toContain("Nothing was sent");
    }
    expect(resolver.lookups).toEqual([]);
  });

  it("refuses schemes other than http and https", async () => {
    for (const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "gopher://example.com/",
      "data:text/plain,hi",
      "ws://example.com/",
    ]) {
      const error = await refusal({ url });
      expect(error.code, url).toBe("INVALID_INPUT");
      expect(error.message, url).toContain("the http tool fetches only http and https URLs");
    }
  });

  it("refuses credentials in the URL", async () => {
    for (const url of [
      "http://user:secret@example.com/",
      "http://user@example.com/",
      "http://:pw@example.com/",
    ]) {
      const error = await refusal({ url });
      expect(error.code, url).toBe("INVALID_INPUT");
      expect(error.message).toContain("send them in a header such as Authorization instead");
    }
  });

  it("refuses a URL that is not absolute", async () => {
    const error = await refusal({ url: "/relative/path" });
    expect(error.message).toBe(
      "url: '/relative/path' is not an absolute URL; write one such as https://api.example.com/items.",
    );
  });

  it("refuses a name that resolves to an internal address, after resolving it and before connecting", async () => {
    const server = await startServer();
    const resolver = fakeResolver({ "internal.test": [["127.0.0.1"]] });
    const error = await refusal({ url: `http://internal.test:${server.port}/` }, {}, resolver);
    expect(error.code).toBe("POLICY_VIOLATION");
    expect(error.message).toContain(
      "internal.test resolves to 127.0.0.1, a loopback address of this machine (127.0.0.0/8). Nothing was sent to it.",
    );
    expect(resolver.lookups).toEqual(["internal.test"]);
    expect(server.connections()).toBe(0);
  });

  it("refuses a name with one internal address among public ones", async () => {
    const resolver = fakeResolver({ "mixed.test": [[PUBLIC, "2606:4700::1111", "10.0.0.7"]] });
    const error = await refusal({ url: "http://mixed.test/" }, {}, resolver);
    expect(error.message).toContain("mixed.test resolves to 10.0.0.7, a private address (10.0.0.0/8)");
  });

  it("refuses a name that resolves to an IPv4-mapped IPv6 loopback address", async () => {
    const resolver = fakeResolver({ "mapped.test": [["::ffff:127.0.0.1"]] });
    const error = await refusal({ url: "http://mapped.test/" }, {}, resolver);
    expect(error.message).toContain("mapped.test resolves to ::ffff:127.0.0.1, a loopback address");
  });

  it("checks the address actually connected to: a name that answers public at the check and loopback at connect is refused", async () => {
    const server = await startServer();
    const resolver = fakeResolver({ "rebind.test": [[PUBLIC], ["127.0.0.1"]] });
    const error = await refusal({ url: `http://rebind.test:${server.port}/` }, {}, resolver);
    expect(error.code).toBe("POLICY_VIOLATION");
    expect(error.message).toContain("rebind.test resolves to 127.0.0.1");
    expect(resolver.lookups).toEqual(["rebind.test", "rebind.test"]);
    expect(server.connections()).toBe(0);
  });

  it("connects through the same guarded lookup for an allowed name, so an operator can allow a host by name", async () => {
    const server = await startServer((_, res) => res.end("internal"));
    const resolver = fakeResolver({ "intranet.test": [["127.0.0.1"]] });
    const host = await loadStd({ http: { resolve: resolver } });
    const result = await call(
      host,
      "http.request",
      { url: `http://intranet.test:${server.port}/` },
      { http: { allowHosts: ["intranet.test"] } },
    );
    expect(result).toMatchObject({ status_code: 200, body: "internal" });
    expect(resolver.lookups).toEqual(["intranet.test"]);
  });

  it("checks every redirect: an allowed host redirecting to another loopback port is refused, and that port sees nothing", async () => {
    const inside = await startServer();
    const entry = await startServer((_, res) => {
      res.statusCode = 302;
      res.setHeader("location", inside.url("/admin"));
      res.end();
    });
    const error = await refusal({ url: entry.url("/go") }, { http: { allowHosts: [entry.hostPort] } });
    expect(error.code).toBe("POLICY_VIOLATION");
    expect(error.message).toContain(
      `the redirect from ${entry.url("/go")} to ${inside.url("/admin")}, because 127.0.0.1 is a loopback address`,
    );
    expect(entry.connections()).toBe(1);
    expect(inside.connections()).toBe(0);
  });

  it("refuses a redirect to the cloud metadata address, to a name resolving inside, and to another scheme", async () => {
    const resolver = fakeResolver({ "inside.test": [["192.168.1.10"]] });
    const targets = ["http://169.254.169.254/latest/meta-data/", "http://inside.test/", "file:///etc/passwd"];
    const entry = await startServer((req, res) => {
      res.statusCode = 307;
      res.setHeader("location", targets[Number(req.url.slice(1))] ?? "/");
      res.end();
    });
    for (const [index, target] of targets.entries()) {
      const error = await refusal(
        { url: entry.url(`/${index}`) },
        { http: { allowHosts: [entry.hostPort] } },
        resolver,
      );
      expect(error.code, target).toBe("POLICY_VIOLATION");
      expect(error.message, target).toContain(`the redirect from ${entry.url(`/${index}`)} to`);
    }
  });

  it("refuses an allowHosts entry that is not a host, when the tool is built", async () => {
    const host = await loadStd();
    const error = await callError(
      host,
      "http.request",
      { url: "https://example.com/" },
      { http: { allowHosts: ["http://x/"] } },
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("http.allowHosts.0: 'http://x/' is not a host");
  });
});
