// A real HTTP server on 127.0.0.1 for the http tool's tests: it counts connections, so a test
// can show a refused call sent nothing, and records each request it answers.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ResolvedAddress, Resolver } from "../../src/http/index.js";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface TestServer {
  readonly port: number;
  /** `http://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  /** `127.0.0.1:<port>`, as an allowHosts entry. */
  readonly hostPort: string;
  readonly requests: RecordedRequest[];
  connections(): number;
  close(): Promise<void>;
}

type Handler = (request: RecordedRequest, response: ServerResponse) => void;

const open: TestServer[] = [];

/** Starts a server answering with `handler`; `closeServers` stops every one started. */
export async function startServer(handler: Handler = (_, res) => res.end("ok")): Promise<TestServer> {
  let connections = 0;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const started: TestServer = {
    port,
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    hostPort: `127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(started);
  return started;
}

export async function closeServers(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** A port nothing listens on: a server's, after it closed. */
export async function closedPort(): Promise<number> {
  const server = await startServer();
  await server.close();
  open.splice(open.indexOf(server), 1);
  return server.port;
}

/**
 * A resolver answering from a table instead of DNS; a name with several answers gives the
 * next one at each lookup (the last one from then on). `lookups` lists the names asked.
 */
export function fakeResolver(table: Readonly<Record<string, readonly (readonly string[])[]>>): Resolver & {
  readonly lookups: string[];
} {
  const lookups: string[] = [];
  const asked = new Map<string, number>();
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    const answers = table[hostname];
    if (answers === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const index = asked.get(hostname) ?? 0;
    asked.set(hostname, index + 1);
    const answer = answers[Math.min(index, answers.length - 1)] ?? [];
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { lookups });
}
