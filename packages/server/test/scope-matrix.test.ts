// The scope matrix: every route of the OpenAPI document, asked with keys out of scope, answers
// exactly as it does for parts that do not exist. Two servers: in `here` an agent outside the
// keys' scope (vault/keeper) has a job waiting on an approval, a routine, an inventory entry, a
// member and a key that name it; in `nowhere` none of it exists. The same request with the same
// names and IDs must get the same status, content type and body from both (the caller's own key
// ID, which differs, aside); a list in `here` must name none of it. A key of one tenant asking
// about another gets the answer for a tenant that does not exist, on every route. The matrix is
// driven by the document: a route with no entry here fails the test.
import { fileURLToPath } from "node:url";
import type { Caller } from "@oz0/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, type KeyName, LAB, OTHER, type TestServer, testServer } from "./helpers.js";

const VAULT = fileURLToPath(new URL("../../runtime/test/fixtures/policy/vault", import.meta.url));
const CLOCKWORK = fileURLToPath(new URL("../../runtime/test/fixtures/routines/clockwork", import.meta.url));
const ASKER = fileURLToPath(new URL("./fixtures/asker", import.meta.url));
const SWEEPS = fileURLToPath(new URL("./fixtures/sweeps", import.meta.url));
const ADMIN: Caller = { tenant: LAB, actor: "cli:test", role: "admin", agents: ["*"] };

interface Served {
  readonly test: TestServer;
  readonly keys: Record<KeyName, string>;
}

let here: Served;
let nowhere: Served;
/** What exists only in `here`, outside the scoped keys' agents. */
const hidden = {
  agent: "vault/keeper",
  flow: "sweeps/sweep",
  job: "",
  approval: "",
  routine: "hidden",
  user: "keeper-minder",
};

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: string;
}

async function ask(
  served: Served,
  key: KeyName | undefined,
  request: Request,
  tenant: string = LAB,
): Promise<Answer> {
  if (request.mcp !== undefined) return askMcp(served, key, request, tenant);
  const headers = new Headers(request.headers);
  if (key !== undefined) headers.set("authorization", `Bearer ${served.keys[key]}`);
  if (request.body !== undefined && !headers.has("content-type"))
    headers.set("content-type", "application/json");
  const response = await fetch(`${served.test.url}/v1/t/${tenant}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = await response.text();
  // The caller's own key is named in a refusal of its role or scope; the two servers' keys differ.
  const actor = key === undefined ? undefined : `key:${served.keys[key].split("_")[1]}`;
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: actor === undefined ? body : body.replaceAll(actor, "key:CALLER"),
  };
}

interface Request {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** An MCP request sent in a session started at `path` (initialize, initialized, then it). */
  readonly mcp?: { readonly method: string; readonly params: Record<string, unknown> };
}

const MCP_ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" };

/**
 * Starts an MCP session at `request.path` with `key`, sends `request.mcp` in it and answers
 * with its JSON-RPC reply (the SSE event's data, whose event IDs are random); a refused
 * initialize is the answer itself.
 */
async function askMcp(served: Served, key: KeyName | undefined, request: Request, tenant: string) {
  const url = `${served.test.url}/v1/t/${tenant}${request.path}`;
  const auth: Record<string, string> =
    key === undefined ? {} : { authorization: `Bearer ${served.keys[key]}` };
  const post = (body: unknown, session: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { ...MCP_ACCEPT, ...auth, ...session }, body: json(body) });
  const started = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "matrix", version: "1" } },
  });
  const id = started.headers.get("mcp-session-id");
  const opened = await started.text();
  if (id === null) {
    return { status: started.status, type: started.headers.get("content-type"), body: opened };
  }
  const session = { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
  const response = await post({ jsonrpc: "2.0", id: 2, ...request.mcp }, session);
  const text = await response.text();
  await (await fetch(url, { method: "DELETE", headers: { ...auth, ...session } })).text();
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .join("\n");
  return { status: response.status, type: response.headers.get("content-type"), body: data || text };
}

/**
 * What each route is asked in the matrix: a request about a hidden part (`part`, compared with
 * `nowhere`), a list that must name no hidden part (`list`), or why it names no agent or job.
 */
type Probe = { readonly part: () => Request } | { readonly list: () => Request } | { readonly none: string };

const json = (value: unknown) => JSON.stringify(value);

const MATRIX: Record<string, readonly Probe[]> = {
  "GET /v1/health": [{ none: "no tenant, no credentials: whether the server is up" }],
  "POST /v1/sessions": [{ none: "signs a user in by name and password; names no agent or job" }],
  "DELETE /v1/sessions": [{ none: "signs the caller's own session out" }],
  "GET /v1/t/{tenant}/me": [{ none: "the caller itself: its role and agents" }],
  "GET /v1/t/{tenant}/agents/{plugin}/{name}": [
    { part: () => ({ method: "GET", path: `/agents/${hidden.agent}` }) },
  ],
  "GET /v1/t/{tenant}/flows/{plugin}/{name}": [
    { part: () => ({ method: "GET", path: `/flows/${hidden.flow}` }) },
  ],
  "POST /v1/t/{tenant}/jobs": [
    { part: () => ({ method: "POST", path: "/jobs", body: json({ agent: hidden.agent, input: "x" }) }) },
    { part: () => ({ method: "POST", path: "/jobs", body: json({ agent: "keeper", input: "x" }) }) },
  ],
  "GET /v1/t/{tenant}/jobs": [
    { list: () => ({ method: "GET", path: "/jobs?limit=500" }) },
    { list: () => ({ method: "GET", path: `/jobs?since=0&until=${Number.MAX_SAFE_INTEGER}&limit=1` }) },
    { part: () => ({ method: "GET", path: `/jobs?agent=${hidden.agent}` }) },
    { part: () => ({ method: "GET", path: `/jobs?agent=${hidden.agent}&since=0` }) },
    { part: () => ({ method: "GET", path: `/jobs?agent=${hidden.flow}&since=0&until=1` }) },
  ],
  "GET /v1/t/{tenant}/jobs/{id}": [{ part: () => ({ method: "GET", path: `/jobs/${hidden.job}` }) }],
  "POST /v1/t/{tenant}/jobs/{id}/cancel": [
    { part: () => ({ method: "POST", path: `/jobs/${hidden.job}/cancel` }) },
  ],
  "GET /v1/t/{tenant}/jobs/{id}/card": [
    { part: () => ({ method: "GET", path: `/jobs/${hidden.job}/card` }) },
  ],
  "POST /v1/t/{tenant}/jobs/{id}/resume": [
    { part: () => ({ method: "POST", path: `/jobs/${hidden.job}/resume` }) },
  ],
  "GET /v1/t/{tenant}/workers": [{ none: "how many workers are live names no agent or job" }],
  "GET /v1/t/{tenant}/chats/agent": [
    { part: () => ({ method: "GET", path: `/chats/agent?agent=${encodeURIComponent(hidden.agent)}` }) },
  ],
  "POST /v1/t/{tenant}/tools/calls": [
    { none: "a call by hand names a function, whose role check is the runner's" },
  ],
  "POST /v1/t/{tenant}/jobs/{id}/retry": [
    { part: () => ({ method: "POST", path: `/jobs/${hidden.job}/retry` }) },
  ],
  "GET /v1/t/{tenant}/nodes": [{ none: "the nodes that run jobs name no agent or job" }],
  "GET /v1/t/{tenant}/pools": [{ none: "a plugin's shared pool names no agent or job" }],
  "PUT /v1/t/{tenant}/pools/{plugin}": [{ none: "a plugin's shared pool names no agent or job" }],
  "DELETE /v1/t/{tenant}/pools/{plugin}": [{ none: "a plugin's shared pool names no agent or job" }],
  "POST /v1/t/{tenant}/jobs/{id}/answer": [
    { part: () => ({ method: "POST", path: `/jobs/${hidden.job}/answer`, body: json({ answer: "yes" }) }) },
  ],
  "GET /v1/t/{tenant}/jobs/{id}/events": [
    { part: () => ({ method: "GET", path: `/jobs/${hidden.job}/events` }) },
    // The event stream: an out-of-scope job's answers exactly like a missing job's, resumed or not.
    {
      part: () => ({
        method: "GET",
        path: `/jobs/${hidden.job}/events`,
        headers: { accept: "text/event-stream" },
      }),
    },
    {
      part: () => ({
        method: "GET",
        path: `/jobs/${hidden.job}/events`,
        headers: { accept: "text/event-stream", "last-event-id": "1" },
      }),
    },
  ],
  "GET /v1/t/{tenant}/approvals": [
    { list: () => ({ method: "GET", path: "/approvals" }) },
    { part: () => ({ method: "GET", path: `/approvals?job=${hidden.job}` }) },
  ],
  "GET /v1/t/{tenant}/approvals/{id}": [
    { part: () => ({ method: "GET", path: `/approvals/${hidden.approval}` }) },
  ],
  "POST /v1/t/{tenant}/approvals/{id}/approve": [
    { part: () => ({ method: "POST", path: `/approvals/${hidden.approval}/approve`, body: json({}) }) },
  ],
  "POST /v1/t/{tenant}/approvals/{id}/deny": [
    {
      part: () => ({
        method: "POST",
        path: `/approvals/${hidden.approval}/deny`,
        body: json({ reason: "no" }),
      }),
    },
  ],
  "GET /v1/t/{tenant}/policy": [{ none: "tool policy names functions by pattern, not agents or jobs" }],
  "GET /v1/t/{tenant}/policy/calls": [
    // The hidden agent's job called vault.write, held for approval: a scoped key sees none of it.
    { list: () => ({ method: "GET", path: "/policy/calls?pattern=vault/*&action=deny" }) },
    { list: () => ({ method: "GET", path: "/policy/calls?pattern=sweeps/*" }) },
  ],
  "PUT /v1/t/{tenant}/policy": [{ none: "tool policy names functions by pattern, not agents or jobs" }],
  "DELETE /v1/t/{tenant}/policy": [{ none: "tool policy names functions by pattern, not agents or jobs" }],
  "GET /v1/t/{tenant}/kill-switches": [{ list: () => ({ method: "GET", path: "/kill-switches" }) }],
  "POST /v1/t/{tenant}/kill-switches": [
    {
      part: () => ({
        method: "POST",
        path: "/kill-switches",
        body: json({ kind: "agent", address: hidden.agent }),
      }),
    },
  ],
  "DELETE /v1/t/{tenant}/kill-switches": [
    { part: () => ({ method: "DELETE", path: `/kill-switches?kind=agent&address=${hidden.agent}` }) },
  ],
  "GET /v1/t/{tenant}/inventory": [{ list: () => ({ method: "GET", path: "/inventory" }) }],
  "PUT /v1/t/{tenant}/inventory": [
    {
      part: () => ({
        method: "PUT",
        path: "/inventory",
        body: json({ kind: "agent", address: hidden.agent, purpose: "p" }),
      }),
    },
  ],
  "GET /v1/t/{tenant}/catalog": [
    { list: () => ({ method: "GET", path: "/catalog" }) },
    { list: () => ({ method: "GET", path: "/catalog?tag=vault" }) },
  ],
  "GET /v1/t/{tenant}/catalog/lookup": [
    { part: () => ({ method: "GET", path: `/catalog/lookup?name=${hidden.agent}` }) },
    { part: () => ({ method: "GET", path: `/catalog/lookup?name=${hidden.agent}&kind=agent` }) },
  ],
  "GET /v1/t/{tenant}/plugins": [{ list: () => ({ method: "GET", path: "/plugins" }) }],
  "GET /v1/t/{tenant}/plugins/{name}": [{ list: () => ({ method: "GET", path: "/plugins/vault" }) }],
  "POST /v1/t/{tenant}/plugins": [{ none: "installs the uploaded bundle: names no installed agent or job" }],
  "PUT /v1/t/{tenant}/plugins": [
    { none: "updates from the uploaded bundle: names no installed agent or job" },
  ],
  "DELETE /v1/t/{tenant}/plugins/{name}": [
    { none: "removes a plugin, which is no agent: plugins are not scoped" },
  ],
  "POST /v1/t/{tenant}/plugins/{name}/grant": [
    { none: "grants a plugin's uses:, which names no agent of the tenant's" },
  ],
  "DELETE /v1/t/{tenant}/plugins/{name}/grant": [
    { none: "revokes a plugin's grant, which names no agent of the tenant's" },
  ],
  "GET /v1/t/{tenant}/models/aliases": [{ none: "model aliases name no agent or job" }],
  "PUT /v1/t/{tenant}/models/aliases/{alias}": [{ none: "model aliases name no agent or job" }],
  "DELETE /v1/t/{tenant}/models/aliases/{alias}": [{ none: "model aliases name no agent or job" }],
  "GET /v1/t/{tenant}/models/prices": [{ none: "model prices name no agent or job" }],
  "PUT /v1/t/{tenant}/models/prices/{target}": [{ none: "model prices name no agent or job" }],
  "DELETE /v1/t/{tenant}/models/prices/{target}": [{ none: "model prices name no agent or job" }],
  "GET /v1/t/{tenant}/providers": [{ none: "model providers name no agent or job" }],
  "PUT /v1/t/{tenant}/providers/{name}": [{ none: "model providers name no agent or job" }],
  "DELETE /v1/t/{tenant}/providers/{name}": [{ none: "model providers name no agent or job" }],
  "GET /v1/t/{tenant}/plugin-status": [
    { none: "plugins' status (admin specs, runtimes) names no agent or job" },
  ],
  "GET /v1/t/{tenant}/plugins/{name}/status": [
    { none: "a plugin's status (admin specs, runtimes) names no agent or job" },
  ],
  "GET /v1/t/{tenant}/plugins/{plugin}/config": [{ none: "a plugin's config names no agent or job" }],
  "PUT /v1/t/{tenant}/plugins/{plugin}/config": [{ none: "a plugin's config names no agent or job" }],
  "DELETE /v1/t/{tenant}/plugins/{plugin}/config": [{ none: "a plugin's config names no agent or job" }],
  // A member's or key's agents may name an agent outside the caller's: lists show only those within.
  "GET /v1/t/{tenant}/members": [{ list: () => ({ method: "GET", path: "/members" }) }],
  "PUT /v1/t/{tenant}/members/{user}": [
    {
      part: () => ({
        method: "PUT",
        path: `/members/${hidden.user}`,
        body: json({ role: "viewer", agents: [hidden.agent] }),
      }),
    },
  ],
  "DELETE /v1/t/{tenant}/members/{user}": [
    { none: "names a user; refused beyond the caller's scope by identity" },
  ],
  "GET /v1/t/{tenant}/keys": [{ list: () => ({ method: "GET", path: "/keys" }) }],
  "POST /v1/t/{tenant}/keys": [
    {
      part: () => ({
        method: "POST",
        path: "/keys",
        body: json({ name: "probe", role: "viewer", agents: [hidden.agent] }),
      }),
    },
  ],
  "POST /v1/t/{tenant}/keys/{id}/revoke": [{ none: "names a key by its ID, not an agent or job" }],
  // Every entry names what the tenant did, to any agent: a caller limited to some agents is refused it.
  "GET /v1/t/{tenant}/audit": [{ list: () => ({ method: "GET", path: "/audit" }) }],
  // An agent-scoped key's usage counts only its agents' model calls: the hidden job's are in none.
  "GET /v1/t/{tenant}/usage": [
    { list: () => ({ method: "GET", path: "/usage?by=agent" }) },
    { list: () => ({ method: "GET", path: "/usage?by=model" }) },
    { list: () => ({ method: "GET", path: "/usage?by=day" }) },
    // Totals name no agent by model: the hidden job's calls must not be in them either.
    { part: () => ({ method: "GET", path: "/usage?by=model&since=0" }) },
  ],
  // Records belong to plugins, not agents: a caller limited to some agents is refused them all.
  "GET /v1/t/{tenant}/records": [{ list: () => ({ method: "GET", path: "/records" }) }],
  "GET /v1/t/{tenant}/records/{plugin}/{kind}/{key}": [
    { none: "records name a plugin's kind, no agent or job" },
  ],
  "GET /v1/t/{tenant}/records/{plugin}/{kind}/{key}/versions": [
    { none: "records name a plugin's kind, no agent or job" },
  ],
  "POST /v1/t/{tenant}/records/sweep": [{ none: "records name a plugin's kind, no agent or job" }],
  "GET /v1/t/{tenant}/record-retention": [{ none: "retention names a plugin's kind, no agent or job" }],
  "PUT /v1/t/{tenant}/record-retention/{plugin}/{kind}": [
    { none: "retention names a plugin's kind, no agent or job" },
  ],
  "GET /v1/t/{tenant}/record-holds": [
    { none: "holds name a plugin's records or a subject, no agent or job" },
  ],
  "POST /v1/t/{tenant}/record-holds": [
    { none: "holds name a plugin's records or a subject, no agent or job" },
  ],
  "POST /v1/t/{tenant}/record-holds/{id}/release": [
    { none: "holds name a plugin's records or a subject, no agent or job" },
  ],
  "POST /v1/t/{tenant}/record-erasures": [{ none: "erasure names a subject, no agent or job" }],
  "GET /v1/t/{tenant}/routines": [{ list: () => ({ method: "GET", path: "/routines" }) }],
  "GET /v1/t/{tenant}/routines/{name}/fires": [
    { part: () => ({ method: "GET", path: `/routines/${hidden.routine}/fires` }) },
  ],
  "POST /v1/t/{tenant}/routines/{name}/fires": [
    { part: () => ({ method: "POST", path: `/routines/${hidden.routine}/fires`, body: json({}) }) },
  ],
  "POST /v1/t/{tenant}/routines/{name}/pause": [
    { part: () => ({ method: "POST", path: `/routines/${hidden.routine}/pause` }) },
  ],
  "POST /v1/t/{tenant}/routines/{name}/resume": [
    { part: () => ({ method: "POST", path: `/routines/${hidden.routine}/resume` }) },
  ],
  "GET /v1/t/{tenant}/routines/{plugin}/{name}/fires": [
    { part: () => ({ method: "GET", path: "/routines/clockwork/read-only/fires" }) },
  ],
  "POST /v1/t/{tenant}/routines/{plugin}/{name}/fires": [
    { part: () => ({ method: "POST", path: "/routines/clockwork/read-only/fires", body: json({}) }) },
  ],
  "POST /v1/t/{tenant}/routines/{plugin}/{name}/pause": [
    { part: () => ({ method: "POST", path: "/routines/clockwork/read-only/pause" }) },
  ],
  "POST /v1/t/{tenant}/routines/{plugin}/{name}/resume": [
    { part: () => ({ method: "POST", path: "/routines/clockwork/read-only/resume" }) },
  ],
  // The signed webhook takes no key: its HMAC is the credential. Unsigned, a routine of an
  // agent nobody may see answers as one that does not exist.
  "POST /v1/t/{tenant}/routines/{name}/fire": [
    { part: () => ({ method: "POST", path: `/routines/${hidden.routine}/fire`, body: json({}) }) },
  ],
  "POST /v1/t/{tenant}/routines/{plugin}/{name}/fire": [
    { part: () => ({ method: "POST", path: "/routines/clockwork/read-only/fire", body: json({}) }) },
  ],
  // The installation's tenants and users: an admin of tenant default with every agent alone.
  "GET /v1/t/{tenant}/tenants": [{ none: "tenants are the installation's; a scoped key is refused them" }],
  "POST /v1/t/{tenant}/tenants": [{ none: "tenants are the installation's; a scoped key is refused them" }],
  "GET /v1/t/{tenant}/users": [{ none: "users are the installation's; a scoped key is refused them" }],
  "POST /v1/t/{tenant}/users": [{ none: "users are the installation's; a scoped key is refused them" }],
  "DELETE /v1/t/{tenant}/users/{user}": [
    { none: "users are the installation's; a scoped key is refused them" },
  ],
  "GET /v1/t/{tenant}/skill-proposals": [{ list: () => ({ method: "GET", path: "/skill-proposals" }) }],
  "GET /v1/t/{tenant}/skill-proposals/{id}": [
    { part: () => ({ method: "GET", path: "/skill-proposals/sp-hidden" }) },
  ],
  "POST /v1/t/{tenant}/skill-proposals/{id}/approve": [
    { part: () => ({ method: "POST", path: "/skill-proposals/sp-hidden/approve", body: json({}) }) },
  ],
  "POST /v1/t/{tenant}/skill-proposals/{id}/reject": [
    { part: () => ({ method: "POST", path: "/skill-proposals/sp-hidden/reject", body: json({}) }) },
  ],
  "GET /v1/t/{tenant}/mcp/status": [{ list: () => ({ method: "GET", path: "/mcp/status" }) }],
  "GET /v1/t/{tenant}/mcp/secrets": [{ list: () => ({ method: "GET", path: "/mcp/secrets" }) }],
  "PUT /v1/t/{tenant}/mcp/secrets": [{ none: "an MCP secret names a tool, not an agent or job" }],
  "DELETE /v1/t/{tenant}/mcp/secrets": [{ none: "an MCP secret names a tool, not an agent or job" }],
  "POST /v1/t/{tenant}/mcp/imports/{plugin}/secrets": [
    { none: "an import's secrets name the tools of a plugin not yet installed" },
  ],
  "GET /v1/t/{tenant}/remote-secrets": [{ none: "remote-agent secrets are the tenant's, by name" }],
  "PUT /v1/t/{tenant}/remote-secrets/{name}": [{ none: "remote-agent secrets are the tenant's, by name" }],
  "POST /v1/t/{tenant}/routines": [
    {
      part: () => ({
        method: "POST",
        path: "/routines",
        body: json({ name: "probe", run: hidden.agent, event: "webhook" }),
      }),
    },
  ],
  "DELETE /v1/t/{tenant}/routines/{name}": [
    { part: () => ({ method: "DELETE", path: `/routines/${hidden.routine}` }) },
  ],
  "DELETE /v1/t/{tenant}/routines/{plugin}/{name}": [
    { part: () => ({ method: "DELETE", path: "/routines/clockwork/read-only" }) },
  ],
  "POST /v1/t/{tenant}/routines/{name}/secret": [
    { part: () => ({ method: "POST", path: `/routines/${hidden.routine}/secret` }) },
  ],
  "POST /v1/t/{tenant}/routines/{plugin}/{name}/secret": [
    { part: () => ({ method: "POST", path: "/routines/clockwork/read-only/secret" }) },
  ],
  "GET /v1/t/{tenant}/channels": [{ none: "a tenant's channels name no agent or job" }],
  "POST /v1/t/{tenant}/channels/{plugin}/{channel}/messages": [
    { none: "a message sent out through a channel names no agent or job" },
  ],
  // The inbound endpoint takes no key: the channel's own verification is its credential, and an
  // unverified request to any channel, of any tenant, is refused alike.
  "POST /v1/t/{tenant}/channels/{plugin}/{channel}": [
    { none: "unverified, it answers 401 for every channel alike" },
  ],
  "POST /v1/t/{tenant}/chats": [
    { part: () => ({ method: "POST", path: "/chats", body: json({ agent: hidden.agent, text: "hi" }) }) },
  ],
  "POST /v1/t/{tenant}/chats/{id}/messages": [
    { part: () => ({ method: "POST", path: `/chats/${hidden.job}/messages`, body: json({ text: "hi" }) }) },
  ],
  "POST /v1/t/{tenant}/chats/{id}/end": [
    { part: () => ({ method: "POST", path: `/chats/${hidden.job}/end` }) },
  ],
  // oz0's agents as A2A agents: the agent's lookup comes first, so an out-of-scope agent's card
  // and every JSON-RPC method on it answer as a missing agent's.
  "GET /v1/t/{tenant}/a2a/{plugin}/{agent}/.well-known/agent-card.json": [
    { part: () => ({ method: "GET", path: `/a2a/${hidden.agent}/.well-known/agent-card.json` }) },
  ],
  "POST /v1/t/{tenant}/a2a/{plugin}/{agent}": [
    {
      part: () => ({
        method: "POST",
        path: `/a2a/${hidden.agent}`,
        body: json({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: hidden.job } }),
      }),
    },
    {
      part: () => ({
        method: "POST",
        path: `/a2a/${hidden.agent}`,
        body: json({
          jsonrpc: "2.0",
          id: 2,
          method: "SendMessage",
          params: { message: { messageId: "probe", role: "ROLE_USER", parts: [{ text: "x" }] } },
        }),
      }),
    },
  ],
};

/** The in-scope agent the scoped key's MCP sessions serve, and the MCP requests asked in them. */
const MCP_AT = "/mcp?agent=helpdesk/asker";
const mcpPart = (method: string, params: Record<string, unknown>): Probe => ({
  part: () => ({ method: "POST", path: MCP_AT, mcp: { method, params } }),
});
const mcpList = (method: string): Probe => ({
  list: () => ({ method: "POST", path: MCP_AT, mcp: { method, params: {} } }),
});
const initialize = json({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "matrix", version: "1" } },
});
Object.assign(MATRIX, {
  "POST /v1/t/{tenant}/mcp": [
    {
      part: () => ({
        method: "POST",
        path: `/mcp?agent=${hidden.agent}`,
        body: initialize,
        headers: { accept: MCP_ACCEPT.accept },
      }),
    },
    {
      part: () => ({
        method: "POST",
        path: "/mcp",
        body: initialize,
        headers: { accept: MCP_ACCEPT.accept },
      }),
    },
    mcpPart("tools/call", { name: "vault__write", arguments: { key: "k", value: "v" } }),
    mcpPart("resources/read", { uri: `oz0://jobs/${hidden.job}/output` }),
    mcpPart("resources/read", { uri: `oz0://jobs/${hidden.job}/trace` }),
    mcpPart("prompts/get", { name: hidden.agent, arguments: { input: "x" } }),
    mcpPart("completion/complete", {
      ref: { type: "ref/prompt", name: hidden.agent },
      argument: { name: "input", value: "" },
    }),
    mcpList("tools/list"),
    mcpList("prompts/list"),
    mcpList("resources/list"),
    {
      list: () => ({
        method: "POST",
        path: MCP_AT,
        mcp: {
          method: "completion/complete",
          params: {
            ref: { type: "ref/resource", uri: "oz0://jobs/{id}/output" },
            argument: { name: "id", value: "" },
          },
        },
      }),
    },
  ],
  "GET /v1/t/{tenant}/mcp": [
    {
      part: () => ({
        method: "GET",
        path: `/mcp?agent=${hidden.agent}`,
        headers: { accept: "text/event-stream", "mcp-session-id": hidden.job },
      }),
    },
  ],
  "DELETE /v1/t/{tenant}/mcp": [
    {
      part: () => ({
        method: "DELETE",
        path: `/mcp?agent=${hidden.agent}`,
        headers: { "mcp-session-id": hidden.job },
      }),
    },
  ],
} satisfies Record<string, readonly Probe[]>);

/** The keys out of scope: admins (every route's role) limited by address and by a tag no hidden part has. */
const SCOPED_KEYS = ["scopedOperator", "taggedOperator"] as const;

async function serve(setUp: (test: TestServer) => Promise<void>): Promise<Served> {
  const test = await testServer();
  // testServer keeps the keys of the server it started last: each server here keeps its own.
  const keys = { ...KEYS };
  // The job fixtures' helpdesk shares names with vault: only the scoped keys' own agent stays.
  await test.runtime.catalog.remove(LAB, "helpdesk");
  await test.runtime.catalog.install(LAB, ASKER);
  await setUp(test);
  return { test, keys };
}

let routes: string[];

beforeAll(async () => {
  here = await serve(async (test) => {
    const { services } = test.runtime;
    await test.runtime.catalog.install(LAB, VAULT);
    await test.runtime.catalog.install(LAB, CLOCKWORK);
    await test.runtime.catalog.install(LAB, SWEEPS);
    await services.policy.set(ADMIN, "ask", "vault/vault.write");
    hidden.job = (await services.jobs.start(ADMIN, { agent: hidden.agent, input: "store it" })).id;
    for (;;) {
      const [pending] = await services.approvals.list(ADMIN);
      if (pending !== undefined) {
        hidden.approval = pending.id;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await services.routines.add(ADMIN, { name: hidden.routine, run: hidden.agent, event: "webhook" });
    await services.inventory.set(ADMIN, "agent", hidden.agent, { purpose: "keeps secrets" });
    await services.killSwitches.kill(ADMIN, "agent", "vault/twice");
    await services.identity.addUser({ ...ADMIN, tenant: "default" }, hidden.user, "a long enough password");
    await services.identity.addMember(ADMIN, { user: hidden.user, role: "viewer", agents: [hidden.agent] });
    await services.identity.createKey(ADMIN, { name: "keeper-key", role: "viewer", agents: [hidden.agent] });
  });
  nowhere = await serve(async () => {});
  const document = (await (await fetch(`${here.test.url}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
});
afterAll(async () => {
  await here?.test.close();
  await nowhere?.test.close();
});

describe("the scope matrix", () => {
  it("has an entry for every route of the OpenAPI document, and a route for every entry", () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => MATRIX[route] === undefined)).toEqual([]);
    expect(Object.keys(MATRIX).filter((route) => !routes.includes(route))).toEqual([]);
  });

  for (const key of SCOPED_KEYS) {
    it(`answers ${key} about out-of-scope agents, jobs, approvals and routines exactly as about nonexistent ones, on every route`, async () => {
      const differences: unknown[] = [];
      let compared = 0;
      for (const route of routes) {
        for (const probe of MATRIX[route] ?? []) {
          if (!("part" in probe)) continue;
          const request = probe.part();
          const seen = await ask(here, key, request);
          const missing = await ask(nowhere, key, request);
          compared += 1;
          if (seen.status !== missing.status || seen.type !== missing.type || seen.body !== missing.body) {
            differences.push({ route, request, here: seen, nowhere: missing });
          }
        }
      }
      expect(differences).toEqual([]);
      expect(compared).toBeGreaterThan(30);
    });

    it(`names no out-of-scope part in any list ${key} reads`, async () => {
      const named: unknown[] = [];
      for (const route of routes) {
        for (const probe of MATRIX[route] ?? []) {
          if (!("list" in probe)) continue;
          const request = probe.list();
          const seen = await ask(here, key, request);
          const leaks = [
            hidden.agent,
            hidden.flow,
            "sweeps/sweeper",
            hidden.job,
            hidden.approval,
            `"${hidden.routine}"`,
            hidden.user,
            "keeper-key",
          ];
          const found = leaks.filter((leak) => seen.body.includes(leak));
          if (found.length > 0 || seen.status >= 500) named.push({ route, status: seen.status, found });
        }
      }
      expect(named).toEqual([]);
    });
  }

  it("sees the differences it looks for: an admin of every agent is told what exists", async () => {
    let differ = 0;
    let parts = 0;
    for (const route of routes) {
      for (const probe of MATRIX[route] ?? []) {
        if (!("part" in probe)) continue;
        parts += 1;
        const request = probe.part();
        // GETs only, so that nothing of the hidden job changes; the waiting job's stream would not end.
        if (request.method !== "GET" || request.headers?.accept !== undefined) continue;
        const seen = await ask(here, "admin", request);
        const missing = await ask(nowhere, "admin", request);
        if (seen.body !== missing.body) differ += 1;
      }
    }
    expect(parts).toBeGreaterThan(30);
    expect(differ).toBeGreaterThan(8);
    for (const path of [
      "/audit",
      "/members",
      "/keys",
      "/jobs",
      "/approvals",
      "/routines",
      "/inventory",
      "/usage?by=agent",
      "/policy/calls?pattern=vault/*",
      `/flows/${hidden.flow}`,
    ]) {
      const seen = await ask(here, "admin", { method: "GET", path });
      const named = [hidden.agent, hidden.flow, hidden.job, hidden.user, "keeper-key"].some((leak) =>
        seen.body.includes(leak),
      );
      expect({ path, named }).toEqual({ path, named: true });
    }
  });

  it("asks its MCP probes inside a session of the scoped key's own agent, which answers each as a JSON-RPC error", async () => {
    const answers = [];
    for (const probe of MATRIX["POST /v1/t/{tenant}/mcp"] ?? []) {
      if (!("part" in probe) || probe.part().mcp === undefined) continue;
      const seen = await ask(here, "scopedOperator", probe.part());
      answers.push({
        status: seen.status,
        error: (JSON.parse(seen.body) as { error?: { code: number } }).error?.code,
      });
    }
    expect(answers.length).toBe(5);
    expect(answers).toEqual(answers.map(() => ({ status: 200, error: expect.any(Number) })));
    const call = await ask(here, "scopedOperator", {
      method: "POST",
      path: MCP_AT,
      mcp: { method: "tools/call", params: { name: "vault__write", arguments: {} } },
    });
    expect(JSON.parse(call.body)).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("Unknown tool: vault__write") },
    });
  });

  it("left the hidden job, approval and agent as they were", async () => {
    const { services } = here.test.runtime;
    expect(await services.approvals.get(ADMIN, hidden.approval)).toMatchObject({ status: "pending" });
    expect((await services.killSwitches.list(ADMIN)).map((entry) => entry.address)).toEqual(["vault/twice"]);
    expect((await services.identity.listKeys(ADMIN)).filter((entry) => entry.name === "probe")).toEqual([]);
    expect((await services.routines.list(ADMIN)).map((routine) => routine.name)).not.toContain("probe");
  });

  it("answers every route of another tenant exactly as a tenant that does not exist", async () => {
    const differences: unknown[] = [];
    for (const route of routes) {
      const [method, template] = route.split(" ") as [string, string];
      if (!template.startsWith("/v1/t/{tenant}")) continue;
      const path = template.replace("/v1/t/{tenant}", "").replace(/\{[^}]+\}/g, "x");
      const request: Request = { method, path, ...(method === "GET" ? {} : { body: json({}) }) };
      const other = await ask(here, "admin", request, OTHER);
      const none = await ask(here, "admin", request, "nosuch");
      // The signed webhook and a channel's inbound endpoint take no key and answer 401 to a
      // request they cannot verify, whichever tenant.
      const keyed = !template.endsWith("/fire") && template !== "/v1/t/{tenant}/channels/{plugin}/{channel}";
      if (
        (keyed && other.status !== 404) ||
        other.status !== none.status ||
        other.body !== none.body.replaceAll("nosuch", OTHER)
      ) {
        differences.push({ route, other, none });
      }
    }
    expect(differences).toEqual([]);
  });
});
