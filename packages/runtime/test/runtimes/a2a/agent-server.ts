// A loopback A2A agent written with the official SDK's server side (DefaultRequestHandler and
// the JSON-RPC transport handler over node:http), for oz0's remote:a2a runtime to call. What
// it does depends on the message: `echo <text>` completes with an artifact; `ask` asks for
// input and completes with the answer; `hold` works until `release()` or a cancel.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from "@a2a-js/sdk/server";

export interface FixtureAgent {
  readonly url: string;
  /** Each message the agent received: its id, its text, and the headers it came with. */
  readonly received: { messageId: string; text: string; headers: IncomingMessage["headers"] }[];
  /** Tasks cancelled through the protocol. */
  readonly cancelled: string[];
  /** Ends every held task with `text`. */
  release(text: string): void;
  /** Replaces the card the agent serves (a test's bad signature, another version). */
  card: AgentCard;
  close(): Promise<void>;
}

function textPart(text: string) {
  return {
    content: { $case: "text" as const, value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

function statusEvent(taskId: string, contextId: string, state: TaskState, text?: string) {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: {
      state,
      message:
        text === undefined
          ? undefined
          : {
              messageId: `${taskId}:${state}`,
              contextId,
              taskId,
              role: Role.ROLE_AGENT,
              parts: [textPart(text)],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            },
      timestamp: new Date().toISOString(),
    },
    metadata: undefined,
  });
}

export function baseCard(url: string): AgentCard {
  return {
    name: "Fixture agent",
    description: "Echoes, asks, or holds a task.",
    supportedInterfaces: [
      { url: `${url}/rpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "1.2.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "echo",
        name: "Echo",
        description: "Says the message back.",
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

export async function startFixtureAgent(): Promise<FixtureAgent> {
  const received: FixtureAgent["received"] = [];
  const cancelled: string[] = [];
  const held = new Map<string, (text: string) => void>();
  const stalled: (() => void)[] = [];
  const headersOf = new WeakMap<object, IncomingMessage["headers"]>();
  const executor: AgentExecutor = {
    async execute(context, bus: ExecutionEventBus) {
      const message = context.userMessage;
      const text = message.parts
        .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
        .join("");
      received.push({ messageId: message.messageId, text, headers: headersOf.get(context.context) ?? {} });
      const { taskId, contextId } = context;
      if (context.task === undefined) {
        const task: Task = {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
          artifacts: [],
          history: [message],
          metadata: undefined,
        };
        bus.publish(AgentEvent.task(task));
      } else {
        bus.publish(AgentEvent.task(context.task));
      }
      const complete = (answer: string) => {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId: "answer",
              name: "answer",
              description: "",
              parts: [textPart(answer)],
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
        bus.finished();
      };
      if (context.task !== undefined) return complete(`colour: ${text}`);
      if (text.startsWith("echo ")) return complete(`echo: ${text.slice(5)}`);
      if (text === "ask") {
        bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, "Which colour?"));
        bus.finished();
        return;
      }
      if (text === "fail") {
        bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_FAILED, "out of paint"));
        bus.finished();
        return;
      }
      bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_WORKING));
      await new Promise<void>((resolve) => {
        held.set(taskId, (answer) => {
          held.delete(taskId);
          complete(answer);
          resolve();
        });
      });
    },
    async cancelTask(taskId, bus) {
      cancelled.push(taskId);
      held.delete(taskId);
      bus.publish(statusEvent(taskId, "", TaskState.TASK_STATE_CANCELED));
      bus.finished();
    },
  };
  const store = new InMemoryTaskStore();
  let card = baseCard("http://127.0.0.1:0");
  const handler = new DefaultRequestHandler(card, store, executor);
  const rpc = new JsonRpcTransportHandler(handler);
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === "GET" && request.url === "/.well-known/agent-card.json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(fixture.card));
      return;
    }
    if (request.method !== "POST" || request.url !== "/rpc") {
      response.writeHead(404).end();
      return;
    }
    const context = new ServerCallContext({ requestedVersion: "1.0" });
    headersOf.set(context, request.headers);
    const body = Buffer.concat(chunks).toString("utf8");
    const answer = await rpc.handle(body, context);
    // `stall`: the agent takes the message, and its answer never comes back (the sender's worker dies waiting).
    if (body.includes('"stall"')) {
      await new Promise<void>((resolve) => {
        request.socket.once("close", resolve);
        stalled.push(resolve);
      });
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = baseCard(url);
  // The handler answers with the card it was made with; the served one is the fixture's.
  Object.assign(await handler.getAgentCard(), card);
  const fixture: FixtureAgent = {
    url,
    received,
    cancelled,
    card,
    release(text) {
      for (const end of [...held.values()]) end(text);
    },
    close: () =>
      new Promise((resolve) => {
        for (const end of [...held.values()]) end("closed");
        for (const end of stalled) end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fixture;
}
