// A loopback fake of Claude Managed Agents (agents, environments, sessions, events over HTTP and
// SSE, in the API's wire format) for oz0's remote:anthropic runtime, which reaches it through
// the official SDK. Its agent plays the words of each user message in turn:
//   <tool> (bash, read, write, …)  a tool use that waits for a tool confirmation (always_ask);
//   <tool>!                        the same, whose result is an error when it runs;
//   spend:<usd>                    a model request whose usage adds that list cost;
//   hold                           waits until the test calls release();
// then answers with what became of each tool use, and ends its turn.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_KEY = "sk-ant-fake-managed-agents-0123456789";
const TOOLS = new Set(["bash", "edit", "read", "write", "glob", "grep", "web_fetch", "web_search"]);

interface FakeSession {
  readonly id: string;
  readonly agent: string;
  readonly environment: string;
  readonly budget: unknown;
  readonly events: Record<string, unknown>[];
  readonly streams: Set<ServerResponse>;
  status: "idle" | "running" | "terminated";
  archived: boolean;
  listCost: number;
  activeSeconds: number;
  inputTokens: number;
  outputTokens: number;
  /** Tool uses waiting for a confirmation, by event id. */
  readonly waiting: Map<string, (result: { result: string; deny_message?: string }) => void>;
  interrupted: boolean;
  release?: (() => void) | undefined;
}

export interface FakeManagedAgents {
  readonly url: string;
  readonly agents: Record<string, unknown>[];
  readonly environments: Record<string, unknown>[];
  readonly sessions: Map<string, FakeSession>;
  /** Every request: method, path, headers. */
  readonly requests: { method: string; path: string; headers: IncomingMessage["headers"] }[];
  readonly archivedAgents: string[];
  readonly deletedEnvironments: string[];
  /** The events sent to sessions by the client (user.message, user.tool_confirmation, user.interrupt). */
  sent(type: string): Record<string, unknown>[];
  /** Lets a session waiting at `hold` go on. */
  release(session?: string): void;
  /** Whether a session is at `hold`. */
  holding(): boolean;
  close(): Promise<void>;
}

export async function startManagedAgents(): Promise<FakeManagedAgents> {
  let seq = 0;
  const id = (prefix: string) => `${prefix}_${String(++seq).padStart(6, "0")}`;
  const agents: Record<string, unknown>[] = [];
  const environments: Record<string, unknown>[] = [];
  const sessions = new Map<string, FakeSession>();
  const requests: FakeManagedAgents["requests"] = [];
  const archivedAgents: string[] = [];
  const deletedEnvironments: string[] = [];
  const sentEvents: Record<string, unknown>[] = [];

  const emit = (session: FakeSession, event: Record<string, unknown>, eventId = `sevt_${++seq}_0`) => {
    const stored: Record<string, unknown> = { ...event, id: eventId, processed_at: new Date().toISOString() };
    session.events.push(stored);
    for (const stream of session.streams)
      stream.write(`event: ${String(stored.type)}\ndata: ${JSON.stringify(stored)}\n\n`);
  };

  const usage = (session: FakeSession, cost: number) => {
    session.inputTokens += 10;
    session.outputTokens += 5;
    session.listCost += cost;
    session.activeSeconds += 36;
    const start = `sevt_${seq + 1}_0`;
    emit(session, { type: "span.model_request_start" });
    emit(session, {
      type: "span.model_request_end",
      is_error: false,
      model_request_start_id: start,
      model_usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    emit(session, {
      type: "session.usage",
      usage: {
        input_tokens: session.inputTokens,
        output_tokens: session.outputTokens,
        active_seconds: session.activeSeconds,
        list_cost: { amount: session.listCost.toFixed(6), currency: "USD" },
      },
    });
  };

  const play = async (session: FakeSession, text: string) => {
    session.status = "running";
    emit(session, { type: "session.status_running" });
    const said: string[] = [];
    for (const played of text.split(/\s+/).filter(Boolean)) {
      if (session.interrupted) return;
      // `<tool>!`: the tool use fails when it runs.
      const fails = played.endsWith("!") && TOOLS.has(played.slice(0, -1));
      const word = fails ? played.slice(0, -1) : played;
      if (TOOLS.has(word)) {
        usage(session, 0.01);
        const use = id("sevt_tool");
        emit(session, { type: "agent.tool_use", name: word, input: { command: `${word} it` } }, use);
        const answer = new Promise<{ result: string; deny_message?: string }>((resolve) =>
          session.waiting.set(use, resolve),
        );
        session.status = "idle";
        emit(session, {
          type: "session.status_idle",
          stop_reason: { type: "requires_action", event_ids: [use] },
          stop_details: null,
        });
        const decided = await answer;
        if (session.interrupted) return;
        session.status = "running";
        emit(session, { type: "session.status_running" });
        emit(session, {
          type: "agent.tool_result",
          tool_use_id: use,
          is_error: decided.result !== "allow" || fails,
          content: [
            {
              type: "text",
              text:
                decided.result !== "allow"
                  ? (decided.deny_message ?? "denied")
                  : fails
                    ? `${word} failed`
                    : "ok",
            },
          ],
        });
        said.push(
          decided.result !== "allow"
            ? `${word}: denied (${decided.deny_message ?? ""})`
            : fails
              ? `${word}: failed`
              : `${word}: ran`,
        );
      } else if (word.startsWith("spend:")) {
        usage(session, Number(word.slice("spend:".length)));
        said.push(`spent ${word.slice("spend:".length)}`);
      } else if (word === "hold") {
        await new Promise<void>((resolve) => {
          session.release = resolve;
        });
        session.release = undefined;
        said.push("held");
      } else {
        said.push(word);
      }
    }
    if (session.interrupted) return;
    usage(session, 0.001);
    emit(session, { type: "agent.message", content: [{ type: "text", text: `done: ${said.join("; ")}` }] });
    session.status = "idle";
    emit(session, { type: "session.status_idle", stop_reason: { type: "end_turn" }, stop_details: null });
  };

  const sessionView = (session: FakeSession) => ({
    id: session.id,
    type: "session",
    agent: { id: session.agent, type: "agent" },
    environment_id: session.environment,
    status: session.status,
    archived_at: session.archived ? new Date().toISOString() : null,
    budget: session.budget ?? null,
    metadata: {},
    usage: { input_tokens: session.inputTokens, output_tokens: session.outputTokens },
    stats: {},
    resources: [],
    vault_ids: [],
    outcome_evaluations: [],
    title: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body =
        chunks.length === 0
          ? {}
          : (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      const url = new URL(req.url ?? "/", "http://fake");
      const path = url.pathname;
      requests.push({ method: req.method ?? "", path, headers: req.headers });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      // The SDK sends the key as a bearer token (an x-api-key header would do as well).
      if (req.headers.authorization !== `Bearer ${FAKE_KEY}` && req.headers["x-api-key"] !== FAKE_KEY) {
        return json(401, {
          type: "error",
          error: {
            type: "authentication_error",
            message: `invalid API key: ${String(req.headers.authorization ?? req.headers["x-api-key"] ?? "")}`,
          },
        });
      }
      if (!String(req.headers["anthropic-beta"] ?? "").includes("managed-agents-2026-04-01")) {
        return json(400, {
          type: "error",
          error: { type: "invalid_request_error", message: "the managed-agents beta header is missing" },
        });
      }
      const archivedAgent = /^\/v1\/agents\/([^/]+)\/archive$/.exec(path)?.[1];
      const deletedEnvironment = /^\/v1\/environments\/([^/]+)$/.exec(path)?.[1];
      if (req.method === "POST" && path === "/v1/agents") {
        const agent = { id: id("agent"), type: "agent", version: 1, ...body };
        agents.push(agent);
        return json(200, agent);
      }
      if (req.method === "POST" && archivedAgent !== undefined) {
        archivedAgents.push(archivedAgent);
        return json(200, { id: archivedAgent, type: "agent" });
      }
      if (req.method === "POST" && path === "/v1/environments") {
        const environment = { id: id("env"), type: "environment", ...body };
        environments.push(environment);
        return json(200, environment);
      }
      if (req.method === "DELETE" && deletedEnvironment !== undefined) {
        deletedEnvironments.push(deletedEnvironment);
        return json(200, { id: deletedEnvironment, type: "environment_deleted" });
      }
      if (req.method === "POST" && path === "/v1/sessions") {
        const session: FakeSession = {
          id: id("sesn"),
          agent: String(body.agent),
          environment: String(body.environment_id),
          budget: body.budget,
          events: [],
          streams: new Set(),
          status: "idle",
          archived: false,
          listCost: 0,
          activeSeconds: 0,
          inputTokens: 0,
          outputTokens: 0,
          waiting: new Map(),
          interrupted: false,
        };
        sessions.set(session.id, session);
        return json(200, sessionView(session));
      }
      const match = /^\/v1\/sessions\/([^/]+)(\/.*)?$/.exec(path);
      const session = match === null ? undefined : sessions.get(match[1]!);
      if (session === undefined)
        return json(404, { type: "error", error: { type: "not_found_error", message: "no such session" } });
      const rest = match?.[2] ?? "";
      if (req.method === "GET" && rest === "") return json(200, sessionView(session));
      if (req.method === "POST" && rest === "/archive") {
        session.archived = true;
        return json(200, sessionView(session));
      }
      if (req.method === "GET" && rest === "/events")
        return json(200, { data: session.events, next_page: null });
      if (req.method === "GET" && rest === "/events/stream") {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(": connected\n\n");
        session.streams.add(res);
        req.on("close", () => session.streams.delete(res));
        return;
      }
      if (req.method === "POST" && rest === "/events") {
        const events = (body.events ?? []) as Record<string, unknown>[];
        for (const event of events) {
          sentEvents.push({ ...event, session: session.id });
          if (event.type === "user.message") {
            emit(session, event);
            const text = ((event.content ?? []) as { text?: string }[])
              .map((block) => block.text ?? "")
              .join("");
            void play(session, text);
          } else if (event.type === "user.tool_confirmation") {
            emit(session, event);
            const waiting = session.waiting.get(String(event.tool_use_id));
            session.waiting.delete(String(event.tool_use_id));
            waiting?.({
              result: String(event.result),
              ...(typeof event.deny_message === "string" ? { deny_message: event.deny_message } : {}),
            });
          } else if (event.type === "user.interrupt") {
            emit(session, event);
            session.interrupted = true;
            session.release?.();
            for (const resolve of session.waiting.values()) resolve({ result: "deny" });
            session.waiting.clear();
            session.status = "idle";
            emit(session, {
              type: "session.status_idle",
              stop_reason: { type: "end_turn" },
              stop_details: null,
            });
          }
        }
        return json(200, {
          data: events.map((event) => ({ ...event, id: `sevt_receipt_${++seq}`, processed_at: null })),
        });
      }
      return json(404, {
        type: "error",
        error: { type: "not_found_error", message: `${req.method} ${path}` },
      });
    })().catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    agents,
    environments,
    sessions,
    requests,
    archivedAgents,
    deletedEnvironments,
    sent: (type) => sentEvents.filter((event) => event.type === type),
    release(which) {
      for (const session of sessions.values())
        if (which === undefined || session.id === which) session.release?.();
    },
    holding: () => [...sessions.values()].some((session) => session.release !== undefined),
    async close() {
      for (const session of sessions.values()) for (const stream of session.streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
