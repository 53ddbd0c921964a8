// What the server's tests share: a real server on 127.0.0.1:0 over a SQLite runtime with the job
// engine's fixture plugins, its worker running, and keys of every kind made through its identity.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Caller, Runtime } from "@oz0/runtime";
import { type RunningServer, type ServerOptions, startServer } from "../src/index.js";

export const FIXTURES = join(import.meta.dirname, "../../runtime/test/fixtures/jobs");
export const SAMPLE = join(import.meta.dirname, "../../../examples/support-triage");

/** The tenant the fixture plugins go into; `other` has the sample plugin. */
export const LAB = "lab";
export const OTHER = "other";

/** The keys the tests use, each made with `oz0 key create`'s call: its tenant, role and agents. */
const grants = {
  admin: { tenant: LAB, role: "admin", agents: ["*"] },
  runner: { tenant: LAB, role: "runner", agents: ["*"] },
  viewer: { tenant: LAB, role: "viewer", agents: ["*"] },
  scoped: { tenant: LAB, role: "runner", agents: ["helpdesk/asker"] },
  outsider: { tenant: OTHER, role: "admin", agents: ["*"] },
  support: { tenant: OTHER, role: "runner", agents: ["tag:support"] },
  billing: { tenant: OTHER, role: "runner", agents: ["tag:billing"] },
  /** Limited by address, with every role a governance route needs. */
  scopedOperator: { tenant: LAB, role: "admin", agents: ["helpdesk/asker"] },
  /** Limited by a tag no LAB agent has. */
  taggedOperator: { tenant: LAB, role: "admin", agents: ["tag:billing"] },
} as const;

export type KeyName = keyof typeof grants;

/** The bearer key of each kind of caller, of the test server started last. */
export const KEYS = {} as Record<KeyName, string>;

/** The installation's admin (of `default`), who makes the tenants and their keys. */
const INSTALLER: Caller = { tenant: "default", actor: "user:root", role: "admin", agents: ["*"] };

/** Makes tenants LAB and OTHER and a key of each kind through the runtime's identity. */
export async function makeKeys(runtime: Runtime): Promise<Record<KeyName, string>> {
  for (const tenant of [LAB, OTHER]) await runtime.identity.createTenant(INSTALLER, tenant);
  const keys = {} as Record<KeyName, string>;
  for (const [name, grant] of Object.entries(grants) as [KeyName, (typeof grants)[KeyName]][]) {
    const admin: Caller = { tenant: grant.tenant, actor: "user:root", role: "admin", agents: ["*"] };
    keys[name] = (
      await runtime.identity.createKey(admin, {
        name: name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
        role: grant.role,
        agents: grant.agents,
      })
    ).key;
  }
  return keys;
}

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
  Object.assign(KEYS, await makeKeys(runtime));
  await runtime.catalog.install(LAB, join(FIXTURES, "helpdesk"));
  await runtime.catalog.install(OTHER, SAMPLE);
  const server = await startServer({
    runtime,
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

/** The actor a key's requests are recorded as: `key:<id>`, its id being the key's second part. */
export function actorOf(name: KeyName): string {
  return `key:${KEYS[name].split("_")[1]}`;
}
