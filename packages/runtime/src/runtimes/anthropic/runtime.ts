// `runtime: remote:anthropic`: the agent's loop runs at Claude Managed Agents (Anthropic's hosted
// agent harness), reached with the official `@anthropic-ai/sdk`. For a job oz0 creates an agent
// at the provider (its model, instructions and toolset), an environment (unless
// `harness.workspace` names one) and a session, sends the job's input as a `user.message`, and
// follows the session's events (their history, then the SSE stream) until its turn ends.
//
// Governance: every toolset tool the agent gets has an `always_ask` permission policy, so each
// call waits for oz0: each confirmation request is one `callRemote` (the function
// `<plugin>/<agent>.<tool>`), decided by the tenant's policy, kill switches and, for a tool
// `requires_approval` lists, a person; the decision goes back as `user.tool_confirmation`.
// It is a tool use (`kind: "tool_use"`): plugins' pre_tool_call may refuse it, execute_tool
// hears it go ahead, and its result (`agent.tool_result`) passes post_tool_call and on_error.
// Durability: the agent, environment and session ids are recorded (`remote_task`) as each is
// made, each message and confirmation is a recorded call, and a resumed run reattaches to the
// recorded session, reads its history again and sends nothing the history shows was sent.
import type Anthropic from "@anthropic-ai/sdk";
import { Oz0Error } from "@oz0/sdk";
import { type AgentRuntime, type RuntimeCallResult, type RuntimeSession, RuntimeStop } from "../types.js";
import { operatorAgentsUrl } from "./endpoint.js";
import {
  type AnthropicOptions,
  anthropicModelProblem,
  MODEL_PREFIX,
  readAnthropicOptions,
  TOOLSET_TOOLS,
  TOOLSET_TYPE,
} from "./options.js";

export const ANTHROPIC_RUNTIME_NAME = "remote:anthropic";
/** The beta the Managed Agents API is under; the SDK sends it, and oz0 names it in every request too. */
export const MANAGED_AGENTS_BETA = "managed-agents-2026-04-01";

/** What oz0 made at the provider for a job. */
interface Provisioned {
  readonly session: string;
  readonly agent: string;
  readonly environment: string;
  /** oz0 created the environment (no harness.workspace), so it deletes it after the job. */
  readonly ownEnvironment: boolean;
}

/** What a run holds outside the process: the session to interrupt when the job stops. */
const open = new WeakMap<RuntimeSession, Held>();

/** A run's client and session; the session is interrupted once, whoever stops it (the run, a cancel). */
class Held {
  readonly client: Anthropic;
  held: Provisioned | undefined;
  #interrupted = false;
  /** The job was cancelled or ran out of time (not a lost lease): what oz0 made at the provider goes. */
  stopped = false;

  constructor(client: Anthropic) {
    this.client = client;
  }

  async interrupt(): Promise<void> {
    if (this.held === undefined || this.#interrupted) return;
    this.#interrupted = true;
    await interrupt(this.client, this.held.session);
  }
}

export const ANTHROPIC_RUNTIME: AgentRuntime = {
  name: ANTHROPIC_RUNTIME_NAME,
  selects: [ANTHROPIC_RUNTIME_NAME],
  remoteFunctions: ["start_session", "send_message", ...TOOLSET_TOOLS],
  optionProblems: (harness) => readAnthropicOptions(harness).problems,
  modelProblem: anthropicModelProblem,
  async run(session) {
    const { options, problems } = readAnthropicOptions(session.options);
    const modelProblem = anthropicModelProblem(session.model);
    if (problems.length > 0 || modelProblem !== undefined) {
      const all = [...problems, ...(modelProblem === undefined ? [] : [`it ${modelProblem}`])];
      return session.fail({ kind: "remote_error", message: `${session.agent}: ${all.join("; ")}` });
    }
    const model = (session.model?.use ?? "").slice(MODEL_PREFIX.length);
    const key = await session.providerKey("anthropic");
    if (key === undefined) {
      return session.fail({
        kind: "remote_error",
        message: `${session.agent} runs at Claude Managed Agents with the tenant's key for provider anthropic, and the tenant has none stored: store one with oz0 provider set anthropic --api-key-stdin`,
      });
    }
    const client = await clientFor(key, operatorAgentsUrl());
    const held = new Held(client);
    open.set(session, held);
    const follower = new Follower(session, client, options, `${MODEL_PREFIX}${model}`, () =>
      held.interrupt(),
    );
    try {
      // The job's first step, recorded before anything is made at the provider: the job's
      // limits and pre_llm_call (a tenant's budget) decide it first. Starting a session costs
      // nothing of itself; what it spends comes in its usage reports, each a step checked so.
      await session.recordStep({
        model: follower.model,
        calls: [],
        costUsd: 0,
        ahead: {
          messages: [{ role: "user", content: inputText(session) }],
          what: `a session of ${session.agent} at Claude Managed Agents${options.maxBudgetUsd === undefined ? "" : ` (at most $${options.maxBudgetUsd}, harness.max_budget_usd)`}`,
        },
      });
      const provisioned = await session.callRemote(
        {
          id: "remote.session",
          function: "start_session",
          description: `Starts a session of ${session.agent} at Claude Managed Agents`,
          args: {
            model,
            tools: [...options.tools],
            ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
          },
        },
        (recorded) => provision(session, client, options, model, recorded),
      );
      if (!provisioned.ok) return await session.fail(failureOf(provisioned.error));
      held.held = provisioned.result as Provisioned;
      await follower.follow(held.held);
    } catch (error) {
      if (
        error instanceof RuntimeStop &&
        !session.signal.aborted &&
        !follower.mayWait &&
        held.held !== undefined
      ) {
        // The job stopped at a step (a limit, a budget, a kill switch) rather than to wait: the session stops too.
        await held.interrupt();
        follower.ended = true;
      }
      if (error instanceof RuntimeStop || session.signal.aborted) throw error;
      follower.ended = true;
      await session.fail({ kind: "remote_error", message: messageOf(error) });
    } finally {
      if ((follower.ended || held.stopped) && held.held !== undefined)
        await release(client, options, held.held);
    }
  },
  cancel(session, reason) {
    const held = open.get(session);
    // A lost lease hands the job to another worker, which reattaches to the same session.
    if (held === undefined || reason === "lost") return;
    held.stopped = true;
    void held.interrupt();
  },
};

/** The SDK's client for the operator's base URL with the tenant's key: never the environment's. */
async function clientFor(key: string, baseURL: string): Promise<Anthropic> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  return new Anthropic({
    apiKey: key,
    authToken: null,
    baseURL,
    maxRetries: 2,
    logLevel: "off",
    logger: silent,
    defaultHeaders: { "anthropic-beta": MANAGED_AGENTS_BETA },
    // The key goes to the operator's endpoint only: a redirect elsewhere is an error, never followed.
    fetch: (input, init) => fetch(input, { ...init, redirect: "error" }),
  });
}

/** Makes the agent, environment and session, recording each id as it is made; a recorded one is reused. */
async function provision(
  session: RuntimeSession,
  client: Anthropic,
  options: AnthropicOptions,
  model: string,
  recorded: Parameters<Parameters<RuntimeSession["callRemote"]>[1]>[0],
): Promise<Provisioned> {
  const task = recorded.task;
  const ownEnvironment = options.workspace === undefined;
  if (task?.state === "session") {
    const [agent = "", environment = ""] = (task.context ?? "").split(" ");
    return { session: task.id, agent, environment, ownEnvironment };
  }
  let agent = task?.state === "agent" ? task.id : task?.state === "environment" ? task.context : undefined;
  if (agent === undefined) {
    const made = await client.beta.agents.create(
      {
        name: `oz0 ${session.agent}`,
        model,
        ...(instructionsOf(session) === "" ? {} : { system: instructionsOf(session) }),
        tools: [toolset(options)],
        metadata: { oz0_job: session.job, oz0_agent: session.agent },
      },
      { signal: session.signal },
    );
    agent = made.id;
    await recorded.record({ id: agent, state: "agent" });
  }
  let environment = options.workspace ?? (task?.state === "environment" ? task.id : undefined);
  if (environment === undefined) {
    const made = await client.beta.environments.create(
      { name: `oz0 ${session.job}`, config: { type: "cloud" }, metadata: { oz0_job: session.job } },
      { signal: session.signal },
    );
    environment = made.id;
    await recorded.record({ id: environment, context: agent, state: "environment" });
  }
  const made = await client.beta.sessions.create(
    {
      agent,
      environment_id: environment,
      title: `oz0 job ${session.job}`,
      metadata: { oz0_job: session.job, oz0_agent: session.agent },
      ...(options.maxBudgetUsd === undefined
        ? {}
        : {
            budget: {
              type: "limit",
              max_list_cost: { amount: String(options.maxBudgetUsd), currency: "USD" },
            },
          }),
    },
    // One session per job: a retry after a lost answer could make a second.
    { signal: session.signal, maxRetries: 0 },
  );
  await recorded.record({ id: made.id, context: `${agent} ${environment}`, state: "session" });
  return { session: made.id, agent, environment, ownEnvironment };
}

/** The toolset: the tools the agent gets, each asking oz0 before it runs; the others disabled. */
function toolset(options: AnthropicOptions) {
  return {
    type: TOOLSET_TYPE,
    default_config: { enabled: false },
    configs: TOOLSET_TOOLS.filter((tool) => options.tools.includes(tool)).map((name) => ({
      name,
      enabled: true,
      permission_policy: { type: "always_ask" as const },
    })),
  } as unknown as Anthropic.Beta.Agents.BetaManagedAgentsAgentToolset20260401Params;
}

type SessionEvent = Anthropic.Beta.Sessions.BetaManagedAgentsSessionEvent;

/**
 * Follows a session's events: its history first (what an earlier run saw is replayed: its steps
 * from the job's history, nothing sent again), then the live stream, until the turn ends.
 */
class Follower {
  readonly model: string;
  readonly #session: RuntimeSession;
  readonly #client: Anthropic;
  readonly #options: AnthropicOptions;
  readonly #seen = new Set<string>();
  /** Tool uses by event id, for the confirmation requests that name them. */
  readonly #uses = new Map<string, { name: string; input: Record<string, unknown> }>();
  /** The tool uses oz0 let go ahead, by event id: their results pass post_tool_call. */
  readonly #allowed = new Map<string, { callId: string; name: string; input: Record<string, unknown> }>();
  /** The confirmations the session holds already (its history), so none is sent twice. */
  readonly #confirmed = new Set<string>();
  /** How many user messages the session holds already. */
  #messagesHeld = 0;
  #messagesSent = 0;
  #stepText = "";
  #turnText = "";
  #tokens = { input: 0, output: 0 };
  #listCost = 0;
  #activeSeconds = 0;
  /** Steps taken in this run (the opening one too): while fewer than the history holds, the run replays. */
  #steps = 1;
  /** The job ended (or failed) here: what oz0 made at the provider goes. */
  ended = false;
  /** A governed call is under way, which may stop the run to wait for a person: the session then waits too. */
  mayWait = false;

  readonly #interrupt: () => Promise<void>;

  constructor(
    session: RuntimeSession,
    client: Anthropic,
    options: AnthropicOptions,
    model: string,
    interruptSession: () => Promise<void>,
  ) {
    this.#session = session;
    this.#interrupt = interruptSession;
    this.#client = client;
    this.#options = options;
    this.model = model;
  }

  get #replaying(): boolean {
    return this.#steps < this.#session.recordedSteps;
  }

  async follow(held: Provisioned): Promise<void> {
    const client = this.#client;
    for (let quiet = 0; quiet < 3; ) {
      const stream = await client.beta.sessions.events.stream(
        held.session,
        {},
        { signal: this.#session.signal },
      );
      try {
        const history: SessionEvent[] = [];
        for await (const entry of client.beta.sessions.events.list(
          held.session,
          {},
          { signal: this.#session.signal },
        ))
          history.push(entry);
        for (const entry of history) if (!this.#seen.has(entry.id)) this.#learn(entry);
        if (this.#messagesSent === 0) await this.#send(held, 1, inputText(this.#session));
        let fresh = false;
        for (const entry of history) {
          if (this.#seen.has(entry.id)) continue;
          fresh = true;
          if (await this.#take(held, entry)) return;
        }
        for await (const streamed of stream) {
          // Deltas (event_start, event_delta) preview an event still coming; the event itself follows.
          if (!("id" in streamed) || typeof streamed.id !== "string" || this.#seen.has(streamed.id)) continue;
          const entry = streamed as SessionEvent;
          fresh = true;
          this.#learn(entry);
          if (await this.#take(held, entry)) return;
        }
        quiet = fresh ? 0 : quiet + 1;
      } finally {
        stream.controller.abort();
      }
    }
    throw new Oz0Error(
      "REMOTE_AGENT_ERROR",
      `the session of ${this.#session.agent} at Claude Managed Agents stopped sending events before its turn ended`,
      { data: { url: "", reason: "stream ended" } },
    );
  }

  /** What an event says of what the session holds already (messages and confirmations sent). */
  #learn(entry: SessionEvent): void {
    if (entry.type === "user.message") this.#messagesHeld += 1;
    if (entry.type === "user.tool_confirmation") this.#confirmed.add(entry.tool_use_id);
  }

  /** Sends message `n` (once: a session that holds it already is not sent it again). */
  async #send(held: Provisioned, n: number, text: string): Promise<void> {
    const result = await this.#governed(
      {
        id: `remote.message.${n}`,
        function: "send_message",
        description: `Sends a message to the session of ${this.#session.agent} at Claude Managed Agents`,
        args: { text, session: held.session },
      },
      async (recorded) => {
        if (this.#messagesHeld < n) {
          const sent = typeof recorded.args.text === "string" ? recorded.args.text : text;
          // The session's own user.message event (in its stream) counts it as held.
          await this.#client.beta.sessions.events.send(
            held.session,
            { events: [{ type: "user.message", content: [{ type: "text", text: sent }] }] },
            // Never sent twice: a retry after a lost answer could give the session the work again.
            { signal: this.#session.signal, maxRetries: 0 },
          );
        }
        return { sent: true, session: held.session };
      },
    );
    this.#messagesSent = n;
    if (!result.ok) await this.#end(failureOf(result.error));
  }

  /** Takes one event; true when the run is over (the job ended, failed, or stopped). */
  async #take(held: Provisioned, entry: SessionEvent): Promise<boolean> {
    this.#seen.add(entry.id);
    const session = this.#session;
    switch (entry.type) {
      case "user.message":
        this.#turnText = "";
        return false;
      case "agent.message": {
        const text = entry.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
        this.#stepText += text;
        this.#turnText += text;
        if (!this.#replaying) {
          session.streamText(text);
          await session.note({ update: "agent_message", data: { id: entry.id, text } });
        }
        return false;
      }
      case "agent.tool_use":
      case "agent.mcp_tool_use":
        this.#uses.set(entry.id, { name: entry.name, input: entry.input });
        if (!this.#replaying) {
          await session.note({
            update: "tool_use",
            data: { id: entry.id, name: entry.name, input: entry.input },
          });
        }
        return false;
      case "agent.tool_result":
      case "agent.mcp_tool_result": {
        if (this.#replaying) return false;
        const useId = entry.type === "agent.tool_result" ? entry.tool_use_id : entry.mcp_tool_use_id;
        const allowed = this.#allowed.get(useId);
        const note = {
          update: "tool_result",
          data: { tool_use_id: useId, is_error: entry.is_error === true },
        };
        if (allowed === undefined) {
          await session.note(note);
          return false;
        }
        const content = entry.content ?? [];
        await session.toolUseResult(
          { id: allowed.callId, function: allowed.name, args: allowed.input },
          entry.is_error === true
            ? { ok: false, error: { code: "TOOL_FAILED", message: textOf(content) } }
            : { ok: true, result: { content } },
          note,
        );
        return false;
      }
      case "span.model_request_end":
        this.#tokens.input += entry.model_usage.input_tokens;
        this.#tokens.output += entry.model_usage.output_tokens;
        return false;
      case "session.usage":
        return this.#usage(entry.usage);
      case "session.error":
        if (!this.#replaying) await session.note({ update: "session_error", data: { error: entry.error } });
        return false;
      case "session.status_terminated":
        await this.#end({
          kind: "remote_error",
          message: `the session of ${session.agent} at Claude Managed Agents was terminated before its turn ended`,
        });
        return true;
      case "session.status_idle":
        return this.#idle(held, entry);
      default:
        return false;
    }
  }

  /** The session's cumulative usage: what it added since the last step is the job's next step. */
  async #usage(usage: Anthropic.Beta.Sessions.BetaManagedAgentsSessionUsageSnapshot): Promise<boolean> {
    const session = this.#session;
    const listCost =
      usage.list_cost?.currency === "USD" ? Number(usage.list_cost.amount) || this.#listCost : this.#listCost;
    const active = usage.active_seconds ?? this.#activeSeconds;
    const hours = this.#options.sessionHourUsd ?? 0;
    const cost =
      Math.max(0, listCost - this.#listCost) + (Math.max(0, active - this.#activeSeconds) / 3600) * hours;
    this.#listCost = Math.max(this.#listCost, listCost);
    this.#activeSeconds = Math.max(this.#activeSeconds, active);
    await this.#step(cost);
    const spent = this.#listCost + (this.#activeSeconds / 3600) * hours;
    const ceiling = this.#options.maxBudgetUsd;
    if (ceiling !== undefined && spent > ceiling) {
      await this.#interrupt();
      await this.#end({
        kind: "budget_exceeded",
        message: `the session of ${session.agent} at Claude Managed Agents has cost $${spent.toFixed(4)}, past harness.max_budget_usd ($${ceiling}); oz0 interrupted it`,
      });
      return true;
    }
    return false;
  }

  /** Records the job's next step: the text and tokens since the last one, at `cost`. */
  async #step(cost: number): Promise<void> {
    await this.#session.recordStep({
      model: this.model,
      text: this.#stepText,
      calls: [],
      usage: this.#tokens,
      costUsd: cost,
    });
    this.#steps += 1;
    this.#stepText = "";
    this.#tokens = { input: 0, output: 0 };
  }

  async #idle(
    held: Provisioned,
    entry: Anthropic.Beta.Sessions.BetaManagedAgentsSessionStatusIdleEvent,
  ): Promise<boolean> {
    const session = this.#session;
    const reason = entry.stop_reason;
    switch (reason.type) {
      case "requires_action":
        for (const id of reason.event_ids) if (await this.#confirm(held, id)) return true;
        return false;
      case "end_turn": {
        // The turn's last step holds what the agent said since the session's last usage report.
        if (this.#stepText !== "") await this.#step(0);
        // In a chat the job waits here for the person's next message: the session waits too.
        this.mayWait = true;
        const next = await session.finish({ text: this.#turnText });
        this.mayWait = false;
        if (next === undefined) {
          // The job ended, or (a chat) waits for the person with its session.
          this.ended = !session.chat;
          return true;
        }
        await this.#send(held, this.#messagesSent + 1, next);
        return this.ended;
      }
      case "budget_reached":
        await this.#end({
          kind: "budget_exceeded",
          message: `the session of ${session.agent} at Claude Managed Agents reached its budget (harness.max_budget_usd) and stopped`,
        });
        return true;
      default:
        await this.#end({
          kind: "remote_error",
          message: `the session of ${session.agent} at Claude Managed Agents stopped without an answer: ${reason.type}`,
        });
        return true;
    }
  }

  /**
   * A confirmation request: the call of `<plugin>/<agent>.<tool>` through the job. Allowed, the
   * session is told `allow`; refused (a deny rule, a person, a kill switch), `deny` with why.
   * True when the run is over.
   */
  async #confirm(held: Provisioned, id: string): Promise<boolean> {
    const session = this.#session;
    if (await session.checkpoint()) {
      // The agent's kill switch, a cancel or the wall time: the session stops too.
      await this.#interrupt();
      this.ended = true;
      throw new RuntimeStop(session.job);
    }
    const use = this.#uses.get(id);
    const name = use?.name ?? "unknown";
    const given = (this.#options.tools as readonly string[]).includes(name);
    let result: RuntimeCallResult;
    if (!given) {
      result = {
        ok: false,
        error: { code: "NOT_GRANTED", message: `${name} is not in the agent's harness.tools` },
      };
    } else {
      const approval = (this.#options.requiresApproval as readonly string[]).includes(name);
      result = await this.#governed(
        {
          id: `remote.confirm.${id}`,
          kind: "tool_use",
          function: name,
          description: `Lets the session of ${session.agent} at Claude Managed Agents run its ${name} tool`,
          args: use?.input ?? {},
          ...(approval ? { requiresApproval: `requires_approval: ${name}` } : {}),
        },
        async () => {
          await this.#answer(held, id, "allow");
          return { confirmed: "allow", tool_use_id: id };
        },
      );
    }
    if (result.ok) {
      this.#allowed.set(id, { callId: `remote.confirm.${id}`, name, input: use?.input ?? {} });
      return false;
    }
    await this.#answer(held, id, "deny", `${result.error.code}: ${result.error.message}`);
    if (result.error.code === "KILLED") {
      await this.#interrupt();
      await this.#end({ kind: "killed", message: result.error.message });
      return true;
    }
    return false;
  }

  /** A governed call; a stop inside it may be a wait, which leaves the session as it is. */
  async #governed(...call: Parameters<RuntimeSession["callRemote"]>): Promise<RuntimeCallResult> {
    this.mayWait = true;
    const result = await this.#session.callRemote(...call);
    this.mayWait = false;
    return result;
  }

  /** Sends a confirmation, unless the session holds one for that tool use already. */
  async #answer(held: Provisioned, id: string, result: "allow" | "deny", why?: string): Promise<void> {
    if (this.#confirmed.has(id)) return;
    await this.#client.beta.sessions.events.send(
      held.session,
      {
        events: [
          {
            type: "user.tool_confirmation",
            tool_use_id: id,
            result,
            ...(why === undefined ? {} : { deny_message: why }),
          },
        ],
      },
      { signal: this.#session.signal },
    );
    this.#confirmed.add(id);
  }

  async #end(failure: { readonly kind: string; readonly message: string }): Promise<void> {
    this.ended = true;
    await this.#session.fail(failure);
  }
}

/** After the job: the session is archived and what oz0 made deleted, unless harness.keep_session keeps it. */
async function release(client: Anthropic, options: AnthropicOptions, held: Provisioned): Promise<void> {
  // Kept, the session (its id in the job's remote_task) can be taken up at the provider after the job.
  if (options.keepSession) return;
  await client.beta.sessions.archive(held.session).catch(() => undefined);
  if (held.ownEnvironment) await client.beta.environments.delete(held.environment).catch(() => undefined);
  await client.beta.agents.archive(held.agent).catch(() => undefined);
}

async function interrupt(client: Anthropic, session: string): Promise<void> {
  await client.beta.sessions.events
    .send(session, { events: [{ type: "user.interrupt" }] })
    .then(() => undefined)
    .catch(() => undefined);
}

/** The agent's instructions: the system part of the start-up context. */
function instructionsOf(session: RuntimeSession): string {
  return session.opening
    .flatMap((message) =>
      message.role === "system" && typeof message.content === "string" ? [message.content] : [],
    )
    .join("\n\n");
}

/** The job's input, as the first message's text. */
function inputText(session: RuntimeSession): string {
  const user = session.opening.find((message) => message.role === "user");
  const content = user?.role === "user" ? user.content : "";
  return typeof content === "string" ? content : JSON.stringify(content);
}

function failureOf(error: { readonly code: string; readonly message: string }) {
  const kind =
    error.code === "POLICY_VIOLATION" || error.code === "APPROVAL_DENIED"
      ? "policy_denied"
      : error.code === "KILLED"
        ? "killed"
        : "remote_error";
  return { kind, message: error.message };
}

/** What a tool result's content says in text: its text blocks, else the content as JSON. */
function textOf(content: readonly { readonly type: string; readonly text?: string }[]): string {
  const texts = content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join("") : JSON.stringify(content);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
