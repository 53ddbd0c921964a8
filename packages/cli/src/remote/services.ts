// The services the CLI calls (CliServices), answered by an oz0 server over its API: each method
// is one route (or, to run a job, the job's event stream), with the same arguments and the same
// answer as the embedded runtime's. The caller each method is given is the embedded one's
// shape only: the server knows its key's caller and acts as that.
import { readFile, realpath, stat } from "node:fs/promises";
import type { Card, ChatTurn, JobEvent, JobView } from "@oz0/runtime";
import { isOz0Error, Oz0Error } from "@oz0/sdk";
import type { CliServices } from "../context.js";
import { followJob, frames, type RunWatch } from "./follow.js";
import { answeredError, type ServerApi } from "./http.js";

type Json = Record<string, unknown>;
type RunOutcome = Awaited<ReturnType<CliServices["jobs"]["run"]>>;
/** What the surface says after "X is a tool, not an agent;". */
type PartHint = NonNullable<Parameters<CliServices["chat"]["open"]>[2]>["hint"];

export function remoteServices(api: ServerApi): CliServices {
  const at = (...segments: string[]) => api.tenantPath(...segments);
  const job = (id: string) => api.get<JobView>(at("jobs", id));
  const events = async (id: string) =>
    (await api.get<{ events: JobEvent[] }>(at("jobs", id, "events"))).events;
  const card = async (view: JobView): Promise<Card | undefined> =>
    view.status === "succeeded" ? api.get<Card>(at("jobs", view.id, "card")) : undefined;

  /** Follows job `id` after seq `after` to where an embedded run stops, and its card. */
  const follow = async (id: string, after: number, watch: RunWatch): Promise<RunOutcome> => {
    const view = await followJob(api, id, after, watch);
    return { view, card: await card(view) };
  };

  /** Runs a job on after a person acted on it, then each parent its end wakes, as `runUp` does. */
  const runUp = async (id: string, watch: RunWatch): Promise<RunOutcome> => {
    let view = await followJob(api, id, lastSeqOf(await events(id), PERSON_ACTS), watch);
    while (ENDED.has(view.status) && view.parent !== null && watch.signal?.aborted !== true) {
      // The server's worker may have taken the woken parent up, or run it to its end, already.
      const parent = await job(view.parent);
      if (parent.status === "waiting") break;
      const history = await events(parent.id);
      const child = view.id;
      const woken = history.some((entry) => entry.kind === "child_job_finished" && entry.data.job === child);
      if (ENDED.has(parent.status) && !woken) break;
      view = await followJob(api, parent.id, lastSeqOf(history, WAITS), watch);
    }
    return { view, card: await card(view) };
  };

  return {
    jobs: {
      get: (_caller, id) => job(id),
      search: async (_caller, filter = {}) => {
        const query = {
          agent: filter.agent,
          status: filter.status,
          tag: filter.tag,
          parent: filter.parent,
          since: filter.since,
          until: filter.until,
          limit: filter.limit,
        };
        return withHint(
          filter.hint,
          async () => (await api.get<{ jobs: JobView[] }>(at("jobs"), { query })).jobs,
        );
      },
      events: async (_caller, id, afterSeq) =>
        (await api.get<{ events: JobEvent[] }>(at("jobs", id, "events"), { query: { after: afterSeq } }))
          .events,
      answerCard: (_caller, id) => api.get<Card>(at("jobs", id, "card")),
      liveWorkers: async () => (await api.get<{ live: number }>(at("workers"))).live,
      start: (_caller, request) => {
        if (request.mode !== undefined || request.traceparent !== undefined) {
          throw new Oz0Error(
            "NOT_SUPPORTED",
            "a job of mode chat, or with a trace parent, is not started through a server's StartJob",
            {
              data: { feature: "StartJob mode" },
            },
          );
        }
        return api.post<JobView>(at("jobs"), {
          json: {
            agent: request.agent,
            input: request.input,
            // Unchecked, a job whose input does not match fails with invalid_input, as embedded.
            check_input: request.checkInput === true,
            ...(request.idempotencyKey === undefined ? {} : { idempotency_key: request.idempotencyKey }),
          },
        });
      },
      run: async (_caller, id, watch = {}) => {
        const started = await job(id);
        if (started.status === "queued" && (await api.get<{ live: number }>(at("workers"))).live === 0) {
          throw new Oz0Error(
            "JOB_STATE_CONFLICT",
            `job ${id} is queued, and no worker runs on the store of the server at ${api.url} to take it; ` +
              `start one there (oz0 worker, or oz0 serve without --no-worker), then follow the job with oz0 job resume ${id}.`,
            { data: { job: id, status: started.status } },
          );
        }
        return follow(id, 0, watch);
      },
      runOn: (_caller, id, watch = {}) => runUp(id, watch),
      resume: async (_caller, id, watch = {}) => {
        // The server checks that the job can be taken up and leaves it to its worker; the
        // follow draws what the worker does from here on.
        const after = lastSeq(await events(id));
        await api.post<JobView>(at("jobs", id, "resume"));
        return follow(id, after, watch);
      },
      cancel: (_caller, id) => api.post<JobView>(at("jobs", id, "cancel")),
      retry: (_caller, id) => api.post<JobView>(at("jobs", id, "retry")),
      answer: (_caller, id, text) => api.post<JobView>(at("jobs", id, "answer"), { json: { answer: text } }),
    },
    chat: {
      open: (_caller, agent, options = {}) =>
        withHint(options.hint, () =>
          api.get<{ plugin: string; name: string }>(at("chats", "agent"), { query: { agent } }),
        ),
      say: async (_caller, message, watch = {}): Promise<ChatTurn> => {
        const said =
          message.job === undefined
            ? await chatTurn(api, at("chats"), { agent: message.agent, text: message.text }, watch)
            : await chatTurn(api, at("chats", message.job, "messages"), { text: message.text }, watch);
        return { view: said.job, answer: said.answer, card: said.card };
      },
      end: (_caller, id) => api.post<JobView>(at("chats", id, "end")),
    },
    catalog: {
      entries: async (_caller, options = {}) =>
        (await api.get<{ parts: never[] }>(at("catalog"), { query: { tag: options.tag } })).parts,
      lookup: (_caller, name, options = {}) =>
        api.get<never>(at("catalog", "lookup"), { query: { name, kind: options.kind } }),
    },
    plugins: {
      list: async () => (await api.get<{ plugins: never[] }>(at("plugins"))).plugins,
      inspect: (_caller, name) => api.get<never>(at("plugins", name)),
      status: async (_caller, name) =>
        name === undefined
          ? (await api.get<{ plugins: never[] }>(at("plugin-status"))).plugins
          : [await api.get<never>(at("plugins", name, "status"))],
      install: async (_caller, from, options = {}) => {
        const upload = await bundleUpload(from);
        return api.post<never>(at("plugins"), {
          archive: upload.archive,
          query: changeQuery(options, upload.source),
        });
      },
      update: async (_caller, from, options = {}) => {
        const upload = await bundleUpload(from);
        return api.put<never>(at("plugins"), {
          archive: upload.archive,
          query: changeQuery(options, upload.source),
        });
      },
      remove: (_caller, name, options = {}) =>
        api.delete<never>(at("plugins", name), { query: changeQuery(options) }),
      grant: (_caller, name) => api.post<never>(at("plugins", name, "grant")),
      revoke: (_caller, name) => api.delete<never>(at("plugins", name, "grant")),
    },
    pluginConfig: {
      show: (_caller, plugin) => api.get<never>(at("plugins", plugin, "config")),
      set: (_caller, plugin, config) => api.put<never>(at("plugins", plugin, "config"), { json: { config } }),
      unset: (_caller, plugin) => api.delete<never>(at("plugins", plugin, "config")),
    },
    tools: {
      call: (_caller, address, args) => api.post<never>(at("tools", "calls"), { json: { address, args } }),
    },
    policy: {
      list: async () => (await api.get<{ rules: never[] }>(at("policy"))).rules,
      set: (_caller, action, pattern) => api.put<never>(at("policy"), { json: { action, pattern } }),
      remove: (_caller, pattern) => api.delete<never>(at("policy"), { query: { pattern } }),
    },
    approvals: {
      list: async (_caller, filter = {}) =>
        (
          await api.get<{ approvals: never[] }>(at("approvals"), {
            query: { status: filter.status, job: filter.job },
          })
        ).approvals,
      decide: (_caller, id, decision, reason) =>
        api.post<never>(at("approvals", id, decision === "approve" ? "approve" : "deny"), {
          json: reason === undefined ? {} : { reason },
        }),
    },
    killSwitches: {
      list: async () => (await api.get<{ switches: never[] }>(at("kill-switches"))).switches,
      kill: (_caller, kind, address) => api.post<never>(at("kill-switches"), { json: { kind, address } }),
      revive: (_caller, kind, address) =>
        api.delete<never>(at("kill-switches"), { query: { kind, address } }),
    },
    inventory: {
      list: async () => (await api.get<{ entries: never[] }>(at("inventory"))).entries,
      set: (_caller, kind, address, change) =>
        api.put<never>(at("inventory"), {
          json: {
            kind,
            address,
            purpose: change.purpose,
            ...(change.owner === undefined ? {} : { owner: change.owner }),
          },
        }),
    },
    models: {
      aliases: async () => (await api.get<{ aliases: never[] }>(at("models", "aliases"))).aliases,
      setAlias: (_caller, alias, target, options) =>
        api.put<never>(at("models", "aliases", alias), {
          json: { target, ...(options === undefined ? {} : { options }) },
        }),
      removeAlias: async (_caller, alias) => {
        await api.delete<Json>(at("models", "aliases", alias));
      },
      prices: async () => (await api.get<{ prices: never[] }>(at("models", "prices"))).prices,
      setPrice: (_caller, target, price) => api.put<never>(at("models", "prices", target), { json: price }),
      removePrice: async (_caller, target) => {
        await api.delete<Json>(at("models", "prices", target));
      },
      providers: async () => (await api.get<{ providers: never[] }>(at("providers"))).providers,
      setProvider: (_caller, name, change) =>
        api.put<never>(at("providers", name), {
          json: {
            type: change.type,
            base_url: change.baseUrl,
            api_key_env: change.apiKeyEnv,
            api_key: change.apiKey,
            timeout_seconds: change.timeoutSeconds,
            retries: change.retries,
            stream: change.stream,
            structured_output: change.structuredOutput,
          },
        }),
      removeProvider: async (_caller, name) => {
        await api.delete<Json>(at("providers", name));
      },
    },
    identity: {
      addMember: (_caller, request) =>
        api.put<never>(at("members", request.user), {
          json: { role: request.role, ...(request.agents === undefined ? {} : { agents: request.agents }) },
        }),
      listMembers: async () => (await api.get<{ members: never[] }>(at("members"))).members,
      removeMember: (_caller, user) => api.delete<never>(at("members", user)),
      createKey: (_caller, request) =>
        api.post<never>(at("keys"), {
          json: {
            name: request.name,
            role: request.role,
            ...(request.agents === undefined ? {} : { agents: request.agents }),
            ...(request.expiresInMs === undefined
              ? {}
              : { expires_in_seconds: Math.ceil(request.expiresInMs / 1000) }),
          },
        }),
      listKeys: async () => (await api.get<{ keys: never[] }>(at("keys"))).keys,
      revokeKey: (_caller, id) => api.post<never>(at("keys", id, "revoke")),
      createTenant: (_caller, name, options = {}) =>
        api.post<never>(at("tenants"), {
          json: { name, ...(options.admin === undefined ? {} : { admin: options.admin }) },
        }),
      listTenants: async () => (await api.get<{ tenants: never[] }>(at("tenants"))).tenants,
      // The password goes in the body of this one request, over the server's connection.
      addUser: (_caller, name, password) => api.post<never>(at("users"), { json: { name, password } }),
      listUsers: async () => (await api.get<{ users: never[] }>(at("users"))).users,
      removeUser: (_caller, name) => api.delete<never>(at("users", name)),
    },
    skills: {
      proposals: async (_caller, options = {}) =>
        (
          await api.get<{ proposals: never[] }>(at("skill-proposals"), {
            query: { status: options.status },
          })
        ).proposals,
      proposal: (_caller, id) => api.get<never>(at("skill-proposals", id)),
      approve: (_caller, id, options) =>
        api.post<never>(at("skill-proposals", id, "approve"), {
          json: { base: options.base, draft: options.draft },
        }),
      reject: (_caller, id, reason) =>
        api.post<never>(at("skill-proposals", id, "reject"), {
          json: reason === undefined ? {} : { reason },
        }),
    },
    mcp: {
      status: async () => (await api.get<{ tools: never[] }>(at("mcp", "status"))).tools,
      secrets: async () => (await api.get<{ secrets: never[] }>(at("mcp", "secrets"))).secrets,
      setSecret: (_caller, tool, kind, name, value) =>
        api.put<never>(at("mcp", "secrets"), { json: { tool, kind, name, value } }),
      removeSecret: (_caller, tool, one) =>
        api.delete<never>(at("mcp", "secrets"), { query: { tool, kind: one?.kind, name: one?.name } }),
      keepSecrets: async (_caller, plugin, secrets) => {
        await api.post<undefined>(at("mcp", "imports", plugin, "secrets"), {
          json: {
            secrets: secrets.map(({ tool, kind, name, value, why }) => ({ tool, kind, name, value, why })),
          },
        });
      },
    },
    remote: {
      secrets: async () => (await api.get<{ names: string[] }>(at("remote-secrets"))).names,
      setSecret: (_caller, name, value) => api.put<never>(at("remote-secrets", name), { json: { value } }),
    },
    audit: {
      list: async (_caller, filter = {}) =>
        (
          await api.get<{ entries: never[] }>(at("audit"), {
            query: { since: filter.since, actor: filter.actor, action: filter.action, limit: filter.limit },
          })
        ).entries,
    },
    records: {
      list: async (_caller, filter = {}) =>
        (
          await api.get<{ records: never[] }>(at("records"), {
            query: { plugin: filter.plugin, kind: filter.kind, subject: filter.subject, limit: filter.limit },
          })
        ).records,
      get: (_caller, record, version) =>
        api.get<never>(at("records", record.plugin, record.kind, record.key), { query: { version } }),
      history: async (_caller, record) =>
        (
          await api.get<{ versions: never[] }>(
            at("records", record.plugin, record.kind, record.key, "versions"),
          )
        ).versions,
      retention: async () => (await api.get<{ retention: never[] }>(at("record-retention"))).retention,
      setRetention: async (_caller, plugin, kind, days) =>
        (
          await api.put<{ retention: never[] }>(at("record-retention", plugin, kind), {
            json: { days: days ?? null },
          })
        ).retention,
      sweep: () => api.post<never>(at("records", "sweep")),
      holds: async (_caller, options = {}) =>
        (
          await api.get<{ holds: never[] }>(at("record-holds"), {
            query: { all: options.all === true ? "true" : undefined },
          })
        ).holds,
      hold: (_caller, scope, reason) =>
        api.post<never>(at("record-holds"), {
          json: { plugin: scope.plugin, kind: scope.kind, key: scope.key, subject: scope.subject, reason },
        }),
      release: (_caller, id) => api.post<never>(at("record-holds", id, "release")),
      erase: (_caller, subject) => api.post<never>(at("record-erasures"), { json: { subject } }),
    },
    channels: {
      list: async () => (await api.get<{ channels: never[] }>(at("channels"))).channels,
      send: async (_caller, request) => {
        const [plugin = "", name = ""] = request.channel.split("/");
        return api.post<{ message: string }>(at("channels", plugin, name, "messages"), {
          json: {
            to: request.channelId,
            ...(request.threadId === undefined ? {} : { thread: request.threadId }),
            text: request.text,
          },
        });
      },
    },
    nodes: {
      list: async () => (await api.get<{ nodes: never[] }>(at("nodes"))).nodes,
      pools: async () => (await api.get<{ pools: never[] }>(at("pools"))).pools,
      setPool: (_caller, change) =>
        api.put<never>(at("pools", change.plugin), { json: { pool: change.pool, labels: change.labels } }),
      removePool: (_caller, plugin) => api.delete<undefined>(at("pools", plugin)),
    },
    routines: {
      list: async () => (await api.get<{ routines: never[] }>(at("routines"))).routines,
      fire: (_caller, name, options = {}) =>
        api.post<never>(at("routines", ...name.split("/"), "fires"), {
          json: options.input === undefined ? {} : { input: options.input },
        }),
      pause: (_caller, name) => api.post<never>(at("routines", ...name.split("/"), "pause")),
      resume: (_caller, name) => api.post<never>(at("routines", ...name.split("/"), "resume")),
      history: async (_caller, name, options = {}) =>
        (
          await api.get<{ fires: never[] }>(at("routines", ...name.split("/"), "fires"), {
            query: { limit: options.limit },
          })
        ).fires,
      add: (_caller, input) => api.post<never>(at("routines"), { json: input }),
      remove: (_caller, name) => api.delete<never>(at("routines", ...name.split("/"))),
      secret: (_caller, name) => api.post<never>(at("routines", ...name.split("/"), "secret")),
    },
  };
}

const ENDED = new Set(["succeeded", "failed", "cancelled", "dead"]);

interface SaidTurn {
  readonly job: JobView;
  readonly answer: unknown;
  readonly card?: Card;
}

/**
 * Sends one chat message and reads its turn, asking for it as an event stream: the model's
 * text goes to onText as it comes, as it does embedded. A server that answers the turn whole
 * (the model gave no text, or it was refused first) answers it as JSON; its text answer is then
 * given to onText at once.
 */
async function chatTurn(api: ServerApi, path: string, json: unknown, watch: RunWatch): Promise<SaidTurn> {
  const response = await api.send("POST", path, {
    json,
    headers: { accept: "text/event-stream, application/json" },
    signal: watch.signal,
  });
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !type.startsWith("text/event-stream") || response.body === null) {
    const text = await response.text();
    if (!response.ok) throw answeredError("POST", path, response.status, text);
    const said = JSON.parse(text) as SaidTurn;
    if (said.card === undefined && typeof said.answer === "string") watch.onText?.(said.answer);
    return said;
  }
  for await (const frame of frames(response.body, `${api.url}${path}`)) {
    if (frame.event === "delta") {
      const delta = JSON.parse(frame.data) as { text?: unknown };
      if (typeof delta.text === "string") watch.onText?.(delta.text);
    } else if (frame.event === "turn") {
      return JSON.parse(frame.data) as SaidTurn;
    } else if (frame.event === "error") {
      const shape = JSON.parse(frame.data) as { error?: { status?: unknown } };
      const status = typeof shape.error?.status === "number" ? shape.error.status : 500;
      throw answeredError("POST", path, status, frame.data);
    }
  }
  throw new Oz0Error(
    "NETWORK_ERROR",
    `the chat answer from ${api.url}${path} ended before its turn; the job goes on on the server (oz0 job get shows it)`,
    { data: { url: api.url, cause: "stream ended early" } },
  );
}

/** What a person does to a waiting job: the run on starts after the last of these. */
const PERSON_ACTS = new Set(["answer_received", "approval_decided", "user_message"]);
/** Where a job stopped to wait: a parent woken by its child goes on after the last of these. */
const WAITS = new Set(["job_waiting"]);

function lastSeq(list: readonly JobEvent[]): number {
  return list.at(-1)?.seq ?? 0;
}

function lastSeqOf(list: readonly JobEvent[], kinds: ReadonlySet<string>): number {
  return list.findLast((entry) => kinds.has(entry.kind))?.seq ?? lastSeq(list);
}

function changeQuery(options: { readonly force?: boolean; readonly reason?: string }, source?: string) {
  return {
    ...(options.force === true ? { force: "true" } : {}),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(source === undefined ? {} : { source }),
  };
}

/**
 * What `plugin install|update` uploads: a folder packed into a bundle archive (as `oz0 plugin
 * pack` packs it), or an archive file as it is; and where it came from, recorded as the
 * plugin's folder as it is for an embedded install.
 */
async function bundleUpload(from: unknown): Promise<{ archive: Uint8Array; source: string }> {
  const { packBundle, packFolder } = await import("@oz0/runtime");
  if (typeof from !== "string") {
    const bundle = from as Parameters<typeof packBundle>[0];
    return { archive: await packBundle(bundle), source: `bundle ${bundle.digest}` };
  }
  const info = await stat(from).catch(() => undefined);
  if (info?.isFile() === true) return { archive: await readFile(from), source: await realpath(from) };
  const packed = await packFolder(from);
  return { archive: packed.archive, source: await realpath(from) };
}

/**
 * A refusal of an address that names another kind of part ("x is a tool, not an agent; …")
 * ends with what the surface says to do instead: the server says its own, the CLI its hint.
 */
async function withHint<T>(hint: PartHint | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (hint === undefined || !isOz0Error(error, "NOT_FOUND")) throw error;
    const other =
      /^(\S+) is an? (agent|flow|tool|function|skill), not (?:an agent or a flow|an agent); /.exec(
        error.message,
      );
    if (other === null) throw error;
    const told = `${other[0]}${hint({ kind: other[2]!, address: other[1]! })}`;
    throw new Oz0Error("NOT_FOUND", told, error.data === undefined ? undefined : { data: { ...error.data } });
  }
}
