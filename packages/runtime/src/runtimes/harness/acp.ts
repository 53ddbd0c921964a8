// A run on an ACP harness: oz0 is the client (the SDK's ClientApp) of the harness process over
// its stdin and stdout. The agent's tools reach it as one MCP server whose calls run through
// the job (tools-server.ts); its permission requests are calls of its tool kinds, decided by
// the gate like any function (a deny rule refuses, an ask rule or `requires_approval` holds it
// for a person); its `fs` and `terminal` requests, when the agent `needs` them, are served by
// the mediated tool runtime, confined to the workspace; its session updates go into the trace
// and its text into the job's live text. docs/runtimes.md#harnesses says what a crash means.
import { Readable, Writable } from "node:stream";
import {
  type ClientContext,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionConfigOption,
  type SessionNotification,
  type SetSessionConfigOptionResponse,
} from "@agentclientprotocol/sdk";
import { Oz0Error } from "@oz0/sdk";
import { mediatedRuntime } from "../../mediated/index.js";
import { type HarnessSetting, type RuntimeSession, RuntimeStop } from "../types.js";
import { CANCEL_GRACE_MS, harnessFailed, howItEnded, type StartedHarness, startHarness } from "./process.js";
import { HarnessSteps } from "./steps.js";
import { Terminals } from "./terminals.js";
import { startToolsServer, type ToolsServer } from "./tools-server.js";
import { prepareWorkspace, releaseWorkspace } from "./workspace.js";

/** What a run on an ACP harness holds, for a cancel to reach. */
export interface AcpRun {
  cancel(): void;
}

export async function runAcp(
  session: RuntimeSession,
  setting: HarnessSetting,
  onStart: (run: AcpRun) => void,
): Promise<void> {
  const name = setting.spec.name;
  const options = setting.options;
  const needs = (options.needs as readonly string[] | undefined) ?? [];
  const kinds = options.tools as readonly string[] | undefined;
  const skills = await prepareWorkspace(setting, session.job);
  const files = mediatedRuntime({
    agentRoot: setting.workspace,
    ...(skills === undefined ? {} : { toolRoot: skills }),
  });
  const terminals = new Terminals(files);
  let stopWith: (reason: unknown) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stopWith = reject;
  });
  stopped.catch(() => undefined);
  const steps = new HarnessSteps(session, (reason) => stopWith(reason));
  const tools: ToolsServer | undefined =
    session.functions.length === 0
      ? undefined
      : await startToolsServer(session.functions, (fn, args) => steps.call(fn, args));
  let harness: StartedHarness | undefined;
  let context: ClientContext | undefined;
  let sessionId: string | undefined;
  onStart({
    cancel() {
      if (context !== undefined && sessionId !== undefined) {
        void context.notify("session/cancel", { sessionId }).catch(() => undefined);
      }
      // A harness that does not stop within the grace is stopped.
      setTimeout(() => harness?.kill(), CANCEL_GRACE_MS).unref();
    },
  });
  try {
    harness = startHarness(setting);
    const started = harness;
    const stream = ndJsonStream(
      Writable.toWeb(harness.child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(harness.child.stdout) as ReadableStream<Uint8Array>,
    );
    const app = client({ name: "oz0" })
      .onRequest("session/request_permission", ({ params }) => permission(steps, setting, kinds, params))
      .onNotification("session/update", ({ params }) => update(steps, params))
      .onRequest("fs/read_text_file", ({ params }) =>
        told(async () => {
          need(name, needs, "fs");
          const text = await files.readFile(params.path);
          return { content: lines(text, params.line, params.limit) };
        }),
      )
      .onRequest("fs/write_text_file", ({ params }) =>
        told(async () => {
          need(name, needs, "fs");
          await files.writeFile(params.path, params.content);
          return {};
        }),
      )
      .onRequest("terminal/create", ({ params }) =>
        told(async () => {
          need(name, needs, "terminal");
          return terminals.create(params);
        }),
      )
      .onRequest("terminal/output", ({ params }) => told(async () => terminals.output(params.terminalId)))
      .onRequest("terminal/wait_for_exit", ({ params }) =>
        told(() => terminals.waitForExit(params.terminalId)),
      )
      .onRequest("terminal/kill", ({ params }) => told(async () => terminals.kill(params.terminalId)))
      .onRequest("terminal/release", ({ params }) => told(async () => terminals.release(params.terminalId)));
    const connection = app.connect(stream);
    context = connection.agent;
    const agent = connection.agent;
    const work = (async () => {
      const initialized = await agent.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: needs.includes("fs"), writeTextFile: needs.includes("fs") },
          terminal: needs.includes("terminal"),
        },
        clientInfo: { name: "oz0", version: "1" },
      });
      const created = await agent.request("session/new", {
        cwd: setting.workspace,
        mcpServers:
          tools === undefined
            ? []
            : [{ name: "oz0", command: tools.stdio.command, args: tools.stdio.args, env: [] }],
      });
      sessionId = created.sessionId;
      steps.model(modelOf(created.configOptions));
      steps.note("session", {
        agent: initialized.agentInfo?.name ?? null,
        version: initialized.agentInfo?.version ?? null,
        protocol: initialized.protocolVersion,
      });
      const mode = options.mode as string | undefined;
      if (mode !== undefined) {
        const available = created.modes?.availableModes.map((entry) => entry.id) ?? [];
        if (!available.includes(mode)) {
          throw harnessFailed(
            name,
            `it has no session mode '${mode}' (harness.mode)${available.length === 0 ? "" : `; its modes: ${available.join(", ")}`}`,
          );
        }
        await agent.request("session/set_mode", { sessionId, modeId: mode });
      }
      for (const [configId, value] of Object.entries(
        (options.config ?? {}) as Record<string, string | boolean>,
      )) {
        const set: SetSessionConfigOptionResponse = await agent.request(
          "session/set_config_option",
          typeof value === "boolean"
            ? { sessionId, configId, type: "boolean", value }
            : { sessionId, configId, value },
        );
        steps.model(modelOf(set.configOptions));
      }
      const answer: PromptResponse = await agent.request("session/prompt", {
        sessionId,
        prompt: promptOf(setting, skills),
      });
      switch (answer.stopReason) {
        case "end_turn":
          await steps.finish();
          return;
        case "cancelled":
          // The job was cancelled (or ran out of time): the core ends it as that stop says.
          throw new Error(`harness '${name}' stopped its turn: cancelled`);
        default:
          await steps.fail({
            kind: "harness_stopped",
            message: `harness '${name}' stopped its turn without an answer: ${answer.stopReason}`,
          });
      }
    })();
    try {
      // A process that exits breaks off the requests in flight (work then rejects); one that exits
      // after its turn ended leaves the job to end as its answer says.
      await Promise.race([work, stopped]);
    } catch (error) {
      if (error instanceof Oz0Error || error instanceof RuntimeStop) throw error;
      // A request broken off because the process died says less than how it died.
      const exit = await Promise.race([
        started.exited,
        new Promise<undefined>((done) => setTimeout(() => done(undefined), 1000).unref()),
      ]);
      throw harnessFailed(name, exit === undefined ? messageOf(error) : howItEnded(started, exit));
    }
  } finally {
    terminals.releaseAll();
    harness?.kill();
    await tools?.close();
    await releaseWorkspace(setting, session.job);
  }
}

/**
 * A permission request: the call of the harness's tool kind `<plugin>/<harness>.<kind>` through
 * the job. Allowed, the harness is told `allow_once` (never `allow_always`, so it asks again next
 * time); refused, `reject_once`. A kind the agent's `tools` does not list is refused unasked.
 */
async function permission(
  steps: HarnessSteps,
  setting: HarnessSetting,
  kinds: readonly string[] | undefined,
  request: RequestPermissionRequest,
): Promise<RequestPermissionResponse> {
  const kind = request.toolCall.kind ?? "other";
  const pick = (allowed: boolean): RequestPermissionResponse => {
    const wanted = allowed ? ["allow_once"] : ["reject_once", "reject_always"];
    const option = request.options.find((entry) => wanted.includes(entry.kind));
    return option === undefined
      ? { outcome: { outcome: "cancelled" } }
      : { outcome: { outcome: "selected", optionId: option.optionId } };
  };
  if (kinds !== undefined && !kinds.includes(kind)) {
    steps.note("permission_refused", {
      kind,
      title: request.toolCall.title ?? null,
      reason: "not in harness.tools",
    });
    return pick(false);
  }
  const args = {
    title: request.toolCall.title ?? null,
    input: request.toolCall.rawInput ?? null,
    locations: (request.toolCall.locations ?? []).map((location) => location.path),
  };
  const outcome = await steps.call(`${setting.spec.name}__${kind}`, args);
  return pick(outcome.ok);
}

/** A session update: text feeds the job's live text and its next step; tool calls and plans go into the trace. */
function update(steps: HarnessSteps, notification: SessionNotification): void {
  const update = notification.update;
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      if (update.content.type === "text") steps.text(update.content.text);
      return;
    case "tool_call":
      steps.note("tool_call", {
        id: update.toolCallId,
        title: update.title,
        kind: update.kind ?? "other",
        status: update.status ?? "pending",
      });
      return;
    case "tool_call_update":
      steps.note("tool_call_update", {
        id: update.toolCallId,
        ...(update.status === undefined || update.status === null ? {} : { status: update.status }),
        ...(update.title === undefined || update.title === null ? {} : { title: update.title }),
      });
      return;
    case "plan":
      steps.note("plan", {
        entries: update.entries.map((entry) => ({ content: entry.content, status: entry.status })),
      });
      return;
    case "current_mode_update":
      steps.note("mode", { mode: update.currentModeId });
      return;
    case "config_option_update": {
      const model = modelOf(update.configOptions);
      steps.model(model);
      if (model !== undefined) steps.note("model", { model });
      return;
    }
    case "usage_update":
      // The session's cost so far; each step records what it added.
      if (update.cost?.currency === "USD") steps.usage({ costUsd: costDelta(steps, update.cost.amount) });
      return;
    default:
      return;
  }
}

/**
 * The model the session runs on, as its configuration says: the current value of its option of
 * category `model` (ACP's session config options), when it has one.
 */
function modelOf(options: readonly SessionConfigOption[] | null | undefined): string | undefined {
  const option = options?.find((entry) => entry.category === "model" && entry.type === "select");
  return option?.type === "select" ? option.currentValue : undefined;
}

const lastCost = new WeakMap<HarnessSteps, number>();

function costDelta(steps: HarnessSteps, total: number): number {
  const before = lastCost.get(steps) ?? 0;
  lastCost.set(steps, Math.max(before, total));
  return Math.max(0, total - before);
}

/** The prompt: the agent's instructions, where its skills are, then the job's input. */
function promptOf(setting: HarnessSetting, skills: string | undefined) {
  const blocks: { type: "text"; text: string }[] = [];
  if (setting.instructions !== "") blocks.push({ type: "text", text: setting.instructions });
  if (skills !== undefined) {
    blocks.push({
      type: "text",
      text: `Your skills are in ${skills} (read-only), one folder each with its SKILL.md.`,
    });
  }
  blocks.push({ type: "text", text: setting.input });
  return blocks;
}

/** Runs a request of the harness's, telling it a refusal in oz0's words (the SDK would say only "Internal error"). */
async function told<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new RequestError(-32603, messageOf(error), { code: (error as { code?: unknown }).code ?? null });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function need(name: string, needs: readonly string[], capability: string): void {
  if (needs.includes(capability)) return;
  throw new Oz0Error(
    "HARNESS_FAILED",
    `harness '${name}' asked for ${capability}, which the agent's harness.needs does not list, so the session does not offer it`,
    { data: { harness: name, cause: `${capability} not in needs` } },
  );
}

/** ACP's line window of a read: `line` counts from 1. */
function lines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const all = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  return all.slice(start, limit === undefined || limit === null ? undefined : start + limit).join("\n");
}
