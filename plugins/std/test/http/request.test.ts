// http.request against a real loopback server an operator allowed: methods, bodies, limits, redirects, deadline.
import { brotliCompressSync, gzipSync } from "node:zlib";
import { callFunction } from "@oz0/sdk/testing";
import { afterEach, describe, expect, it } from "vitest";
import { send } from "../../src/http/exchange.js";
import { MAX_REDIRECTS, MAX_RESPONSE_BYTES, systemResolver } from "../../src/http/index.js";
import { call, callError, loadStd } from "../helpers.js";
import { closedPort, closeServers, startServer, type TestServer } from "./server.js";

afterEach(closeServers);

/** Calls http.request with `server` (and any `also`) allowed. */
async function request(server: TestServer, args: Record<string, unknown>, also: TestServer[] = []) {
  const host = await loadStd();
  const allowHosts = [server, ...also].map((s) => s.hostPort);
  return call(host, "http.request", args, { http: { allowHosts } });
}

async function requestError(server: TestServer, args: Record<string, unknown>) {
  const host = await loadStd();
  return callError(host, "http.request", args, { http: { allowHosts: [server.hostPort] } });
}

const echo = () =>
  startServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(req));
  });

describe("http.request", () => {
  it("sends GET by default and returns status, headers and the parsed JSON body, in the spec's shape", async () => {
    const server = await echo();
    const result = (await request(server, { url: server.url("/data") })) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(["status", "status_code", "headers", "body"]);
    expect(result).toMatchObject({
      status: "ok",
      status_code: 200,
      headers: { "content-type": "application/json" },
      body: { method: "GET", url: "/data" },
    });
  });

  it("sends POST, PUT and DELETE with the body, headers and query parameters given", async () => {
    const server = await echo();
    for (const method of ["POST", "PUT", "DELETE"]) {
      const result = (await request(server, {
        url: server.url("/items?keep=1"),
        method,
        body: '{"name": "Widget"}',
        headers: { Authorization: "Bearer token123", "X-Trace": "abc" },
        query_params: { page: 2, q: "a b", all: true },
      })) as { body: { method: string; url: string; headers: Record<string, string>; body: string } };
      expect(result.body.method).toBe(method);
      expect(result.body.url).toBe("/items?keep=1&page=2&q=a+b&all=true");
      expect(result.body.body).toBe('{"name": "Widget"}');
      expect(result.body.headers).toMatchObject({
        authorization: "Bearer token123",
        "x-trace": "abc",
        "content-type": "application/json",
        "content-length": "18",
      });
    }
  });

  it("sends a body that is not JSON as text/plain, unless the caller names a content type", async () => {
    const server = await echo();
    const plain = (await request(server, { url: server.url(), method: "POST", body: "hello" })) as {
      body: { headers: Record<string, string> };
    };
    expect(plain.body.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const named = (await request(server, {
      url: server.url(),
      method: "PUT",
      body: "a=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    })) as { body: { headers: Record<string, string> } };
    expect(named.body.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("refuses a body on GET, a header the tool sets itself, and a header with a line break", async () => {
    const server = await echo();
    expect((await requestError(server, { url: server.url(), body: "x" })).message).toContain(
      "a GET request has no body",
    );
    const host = await requestError(server, { url: server.url(), headers: { Host: "internal" } });
    expect(host.message).toBe("headers.Host: the http tool sets Host itself; leave it out.");
    const split = await requestError(server, { url: server.url(), headers: { "X-A": "1\r\nX-B: 2" } });
    expect(split.code).toBe("INVALID_INPUT");
    expect(split.message).toContain("headers.X-A: not a valid header");
    expect(server.connections()).toBe(0);
  });

  it("returns an error status as a result, not an error", async () => {
    const server = await startServer((_, res) => {
      res.statusCode = 404;
      res.end("not here");
    });
    expect(await request(server, { url: server.url() })).toMatchObject({
      status: "ok",
      status_code: 404,
      body: "not here",
    });
  });

  it("returns text as text and binary content as base64", async () => {
    const server = await startServer((req, res) => {
      if (req.url === "/bin") {
        res.setHeader("content-type", "image/png");
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      } else {
        res.setHeader("content-type", "text/html; charset=utf-8");
        res.end("<p>héllo</p>");
      }
    });
    expect(await request(server, { url: server.url("/page") })).toMatchObject({ body: "<p>héllo</p>" });
    const binary = (await request(server, { url: server.url("/bin") })) as Record<string, unknown>;
    expect(binary).toMatchObject({ body: "iVBORw==", body_encoding: "base64" });
  });

  it("decodes gzip and brotli bodies", async () => {
    const server = await startServer((req, res) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("content-encoding", req.url === "/br" ? "br" : "gzip");
      const json = Buffer.from('{"compressed": true}');
      res.end(req.url === "/br" ? brotliCompressSync(json) : gzipSync(json));
    });
    expect(await request(server, { url: server.url("/gz") })).toMatchObject({ body: { compressed: true } });
    expect(await request(server, { url: server.url("/br") })).toMatchObject({ body: { compressed: true } });
    expect(server.requests[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it(`reads a body of exactly ${MAX_RESPONSE_BYTES} bytes and refuses one byte more`, async () => {
    const server = await startServer((req, res) => {
      res.end(Buffer.alloc(MAX_RESPONSE_BYTES + (req.url === "/over" ? 1 : 0), 0x61));
    });
    const fits = (await request(server, { url: server.url("/fits") })) as { body: string };
    expect(fits.body).toHaveLength(MAX_RESPONSE_BYTES);
    const error = await requestError(server, { url: server.url("/over") });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "response size", max: MAX_RESPONSE_BYTES, unit: "bytes" });
  });

  it("counts the 1 MB limit in decoded bytes: a small gzip or brotli bomb is stopped at the limit", async () => {
    const bomb = Buffer.alloc(32 * 1024 * 1024);
    const gzipped = gzipSync(bomb, { level: 9 });
    const brotlied = brotliCompressSync(Buffer.alloc(16 * 1024 * 1024));
    expect(gzipped.length).toBeLessThan(MAX_RESPONSE_BYTES);
    const server = await startServer((req, res) => {
      res.setHeader("content-encoding", req.url === "/br" ? "br" : "gzip");
      res.end(req.url === "/br" ? brotlied : gzipped);
    });
    for (const path of ["/gz", "/br"]) {
      const error = await requestError(server, { url: server.url(path) });
      expect(error.code, path).toBe("LIMIT_EXCEEDED");
      expect(error.message).toContain("once decoded");
      expect(error.data).toEqual({ limit: "response size", max: MAX_RESPONSE_BYTES, unit: "bytes" });
    }
  });

  it("refuses a content-encoding it cannot decode", async () => {
    const server = await startServer((_, res) => {
      res.setHeader("content-encoding", "compress");
      res.end("x");
    });
    const error = await requestError(server, { url: server.url() });
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.message).toContain("the content-encoding 'compress'");
  });

  it(`follows up to ${MAX_REDIRECTS} redirects on an allowed host and refuses the next`, async () => {
    const server = await startServer((req, res) => {
      const hop = Number(req.url.slice(1));
      if (hop < 10) {
        res.statusCode = 302;
        res.setHeader("location", `/${hop + 1}`);
      }
      res.end(`arrived after ${hop}`);
    });
    expect(await request(server, { url: server.url(`/${10 - MAX_REDIRECTS}`) })).toMatchObject({
      status_code: 200,
      body: "arrived after 10",
    });
    const error = await requestError(server, { url: server.url(`/${9 - MAX_REDIRECTS}`) });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "redirects", max: MAX_REDIRECTS, unit: "redirects" });
  });

  it("turns a POST into a GET without body after a 303, and keeps method and body after a 307", async () => {
    const server = await startServer((req, res) => {
      if (req.url === "/see-other" || req.url === "/temporary") {
        res.statusCode = req.url === "/see-other" ? 303 : 307;
        res.setHeader("location", "/done");
        res.end();
        return;
      }
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ method: req.method, body: req.body, type: req.headers["content-type"] ?? null }),
      );
    });
    expect(
      await request(server, { url: server.url("/see-other"), method: "POST", body: "{}" }),
    ).toMatchObject({
      body: { method: "GET", body: "", type: null },
    });
    expect(
      await request(server, { url: server.url("/temporary"), method: "POST", body: "{}" }),
    ).toMatchObject({
      body: { method: "POST", body: "{}", type: "application/json" },
    });
  });

  it("drops credential headers when a redirect leaves the origin", async () => {
    const other = await echo();
    const entry = await startServer((_, res) => {
      res.statusCode = 302;
      res.setHeader("location", other.url("/landing"));
      res.end();
    });
    const result = (await request(
      entry,
      { url: entry.url(), headers: { Authorization: "Bearer secret", Cookie: "a=1", "X-Keep": "yes" } },
      [other],
    )) as { body: { headers: Record<string, string> } };
    expect(result.body.headers.authorization).toBeUndefined();
    expect(result.body.headers.cookie).toBeUndefined();
    expect(result.body.headers["x-keep"]).toBe("yes");
    expect(entry.requests[0]?.headers.authorization).toBe("Bearer secret");
  });

  it("stops a server that never answers at the timeout, a deadline for the whole exchange", async () => {
    // The server never answers: only the deadline can end the call, however slow the machine.
    const server = await startServer(() => {});
    const error = await requestError(server, { url: server.url(), timeout: 1 });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "timeout", max: 1, unit: "s" });
  });

  it("stops a body that keeps trickling in at the deadline, though bytes keep arriving", async () => {
    const server = await startServer((_, res) => {
      res.write("x");
      const drip = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(drip));
    });
    // The body never ends: only a deadline for the whole exchange can end the call.
    const error = await requestError(server, { url: server.url(), timeout: 1 });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.data).toEqual({ limit: "timeout", max: 1, unit: "s" });
  });

  it("refuses a timeout above 120 seconds", async () => {
    const server = await echo();
    const error = await requestError(server, { url: server.url(), timeout: 121 });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("timeout");
  });

  it("stops when the call is cancelled", async () => {
    const server = await startServer(() => {});
    const host = await loadStd();
    const controller = new AbortController();
    const pending = callFunction(
      host,
      "http.request",
      { url: server.url() },
      {
        context: { config: { http: { allowHosts: [server.hostPort] } } },
        call: { signal: controller.signal },
      },
    );
    setTimeout(() => controller.abort(new Error("job cancelled")), 50);
    await expect(pending).rejects.toThrow("job cancelled");
  });

  it("reports a host it cannot reach as a network error", async () => {
    const port = await closedPort();
    const host = await loadStd();
    const error = await callError(
      host,
      "http.request",
      { url: `http://127.0.0.1:${port}/` },
      { http: { allowHosts: [`127.0.0.1:${port}`] } },
    );
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.data).toMatchObject({ url: `http://127.0.0.1:${port}/` });
  });

  it("checks the address a connection reached before writing the request, even when no lookup ran", async () => {
    const server = await startServer();
    const url = new URL(server.url("/"));
    const sending = send({
      target: { url, host: "127.0.0.1", allowed: false, origin: { kind: "argument" } },
      method: "GET",
      headers: {},
      body: undefined,
      resolver: systemResolver,
      signal: new AbortController().signal,
    });
    await expect(sending).rejects.toMatchObject({ code: "POLICY_VIOLATION" });
    expect(server.requests).toEqual([]);
  });
});
