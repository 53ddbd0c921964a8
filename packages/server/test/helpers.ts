// What the server's tests share: a real server on 127.0.0.1:0 over a SQLite runtime with the job
// engine's fixture plugins, its worker running, and keys of every kind in a fixed map.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Caller, Runtime } from "@oz0/runtime";
import { fixedKeys, type RunningServer, type ServerOptions, startServer } from "../src/index.js";

export const FIXTURES = join(import.meta.dirname, "../../runtime/test/fixtures/jobs");
export const SAMPLE = join(import.meta.dirname, "../../../examples/support-triage");

/** The tenant the fixture plugins go into; `other` has the sample plugin. */
export const LAB = "lab";
export const OTHER = "other";

const callers = {
  admin: { tenant: LAB, actor: "key:admin", role: "admin", agents: ["*"] },
  runner: { tenant: LAB, actor: "key:runner", role: "runner", agents: ["*"] },
  viewer: { tenant: LAB, actor: "key:viewer", role: "viewer", agents: ["*"] },
  scoped: { tenant: LAB, actor: "key:scoped", role: "runner", agents: ["helpdesk/asker"] },
  outsider: { tenant: OTHER, actor: "key:outsider", role: "admin", agents: ["*"] },
  support: { tenant: OTHER, actor: "key:support", role: "runner", agents: ["tag:support"] },
  billing: { tenant: OTHER, actor: "key:billing", role: "runner", agents: ["tag:billing"] },
} satisfies Record<string, Caller>;

export type KeyName = keyof typeof callers;

/** The bearer key of each kind of caller. */
export const KEYS: Record<KeyName, string> = {
  admin: "test-admin-key-0000000000",
  runner: "test-runner-key-000000000",
  viewer: "test-viewer-key-000000000",
  scoped: "test-scoped-key-000000000",
  outsider: "test-outsider-key-0000000",
  support: "test-support-key-00000000",
  billing: "test-billing-key-00000000",
};

export interface TestServer {
  readonly server: RunningServer;
  readonly runtime: Runtime;
  readonly url: string;
  /** `fetch` against the server with `key`'s bearer header (none for `undefined`). */
  request(path: string, init?: RequestInit & { key?: KeyName | undefined }): Promise<Response>;
  close(): Promise<void>;
}

export async function testServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const home = await mkdtemp(join(tmpdir(), "oz0-server-"));
  const runtime = await Runtime.open({ home, defaultPlugins: [] });
  await runtime.catalog.install(LAB, join(FIXTURES, "helpdesk"));
  await runtime.catalog.install(OTHER, SAMPLE);
  const server = await startServer({
    runtime,
    authenticator: fixedKeys(
      new Map(Object.entries(callers).map(([name, caller]) => [KEYS[name as KeyName], caller])),
    ),
    host: "127.0.0.1",
    port: 0,
    worker: { pollMs: 50 },
    eventPollMs: 20,
    ...options,
  });
  return {
    server,
    runtime,
    url: server.url,
    request(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set("authorization", `Bearer ${KEYS[key]}`);
      if (typeof rest.body === "string" && !headers.has("content-type"))
        headers.set("content-type", "application/json");
      return fetch(`${server.url}${path}`, { ...rest, headers });
    },
    async close() {
      await server.close();
      await runtime.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Polls the job until it ends (the server's worker runs it). */
export async function untilEnded(test: TestServer, tenant: string, id: string, key: KeyName = "admin") {
  for (;;) {
    const response = await test.request(`/v1/t/${tenant}/jobs/${id}`, { key });
    const job = (await response.json()) as { status: string; output: unknown };
    if (["succeeded", "failed", "cancelled", "dead"].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
