// oz0's agents as A2A agents, driven end to end by a client written with the official SDK
// (@a2a-js/sdk/client): the card at the A2A well-known path, tasks as jobs (send, blocking and
// not, a question answered as the task's next message, get, cancel), streaming of the job's
// events, oz0 API keys, and an agent outside a key's scope answering as a missing one.
import { Role, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, type KeyName, LAB, type TestServer, testServer } from "./helpers.js";

let test: TestServer;

beforeAll(async () => {
  test = await testServer();
});
afterAll(async () => {
  await test.close();
});

function base(agent: string): string {
  return `${test.url}/v1/t/${LAB}/a2a/${agent}`;
}

/** An SDK client of `agent` that sends `key` with every request, the card read first. */
async function client(agent: string, key: KeyName = "runner"): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${KEYS[key]}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new (await import("@a2a-js/sdk/client")).DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(`${base(agent)}/`);
}

function message(text: string, taskId = "") {
  return {
    tenant: "",
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId,
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: "text" as const, value: text },
          metadata: undefined,
          filename: "",
          mediaType: "text/plain",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

function textOf(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
}

describe("oz0 as an A2A agent", () => {
  it("publishes each agent's card at the A2A well-known path, saying how to authenticate", async () => {
    const response = await test.request(`/v1/t/${LAB}/a2a/helpdesk/triage/.well-known/agent-card.json`, {
      key: "runner",
    });
    expect(response.status).toBe(200);
    const card = (await response.json()) as {
      securitySchemes: { oz0: { scheme: { value: { scheme: string } } } };
    };
    expect(card).toMatchObject({
      name: "helpdesk/triage",
      description: "Sorts a ticket into a queue.",
      supportedInterfaces: [
        { url: base("helpdesk/triage"), protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
      capabilities: { streaming: true },
      securityRequirements: [{ schemes: { oz0: { list: [] } } }],
    });
    expect(card.securitySchemes.oz0.scheme.value.scheme).toBe("Bearer");
    const anonymous = await test.request(`/v1/t/${LAB}/a2a/helpdesk/triage/.well-known/agent-card.json`);
    expect(anonymous.status).toBe(401);
  });

  it("runs a message as a job: a blocking send answers with the completed task and its artifact", async () => {
    const triage = await client("helpdesk/triage");
    const task = (await triage.sendMessage(message("ticket 7"))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task)).toBe("billing");
    const job = await (await test.request(`/v1/t/${LAB}/jobs/${task.id}`, { key: "admin" })).json();
    expect(job).toMatchObject({
      id: task.id,
      agent: "helpdesk/triage",
      status: "succeeded",
      input: "ticket 7",
    });
    expect((await triage.getTask({ tenant: "", id: task.id, historyLength: 0 })).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    // The job knows its input is an outside agent's message: its messages pass the agent-communication hooks.
    const events = await test.runtime.jobs.events(task.id, { tenant: LAB });
    expect(events[0]).toMatchObject({ kind: "job_started", data: { via: "a2a" } });
  });

  it("turns the job's question into input-required, and the next message of the task answers it", async () => {
    const asker = await client("helpdesk/asker");
    const asked = (await asker.sendMessage(message("route it"))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const question = asked.status?.message?.parts[0]?.content;
    expect(question).toEqual({ $case: "text", value: "Which queue?" });
    const done = (await asker.sendMessage(message("billing", asked.id))) as Task;
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done)).toBe("assigned as asked");
  });

  it("streams the job's events as status updates, the answer as an artifact, until the task ends", async () => {
    const triage = await client("helpdesk/triage");
    const seen: StreamResponse[] = [];
    for await (const event of triage.sendMessageStream(message("ticket 7"))) seen.push(event);
    expect(seen[0]?.payload?.$case).toBe("task");
    const artifact = seen.find((event) => event.payload?.$case === "artifactUpdate");
    expect(
      artifact?.payload?.$case === "artifactUpdate" && artifact.payload.value.artifact?.parts[0]?.content,
    ).toEqual({
      $case: "text",
      value: "billing",
    });
    const last = seen.at(-1);
    expect(last?.payload?.$case === "statusUpdate" && last.payload.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const kinds = seen.flatMap((event) =>
      event.payload?.$case === "statusUpdate"
        ? ((event.payload.value.metadata?.events ?? []) as { kind: string }[]).map((entry) => entry.kind)
        : [],
    );
    expect(kinds).toContain("model_call");
    expect(kinds.at(-1)).toBe("job_succeeded");
  });

  it("cancels the task's job", async () => {
    const asker = await client("helpdesk/asker");
    const asked = (await asker.sendMessage(message("route it"))) as Task;
    const cancelled = await asker.cancelTask({ tenant: "", id: asked.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const job = (await (await test.request(`/v1/t/${LAB}/jobs/${asked.id}`, { key: "admin" })).json()) as {
      status: string;
    };
    expect(job.status).toBe("cancelled");
    await expect(asker.cancelTask({ tenant: "", id: asked.id, metadata: undefined })).rejects.toThrow();
  });

  it("checks the input against the agent's input_schema before any job exists", async () => {
    const typed = await client("helpdesk/typed");
    await expect(typed.sendMessage(message("not an object"))).rejects.toThrow(
      /input_schema schemas\/in\.json/,
    );
  });

  it("answers an agent outside the key's scope, its card and its tasks, exactly as a missing one", async () => {
    const card = (agent: string) =>
      test.request(`/v1/t/${LAB}/a2a/${agent}/.well-known/agent-card.json`, { key: "scoped" });
    const hidden = await card("helpdesk/triage");
    const missing = await card("helpdesk/nobody");
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    type Refusal = { error: { message: string } };
    const [a, b] = [(await hidden.json()) as Refusal, (await missing.json()) as Refusal];
    expect(a.error.message.replace("triage", "X")).toBe(b.error.message.replace("nobody", "X"));
    const rpc = (agent: string) =>
      test.request(`/v1/t/${LAB}/a2a/${agent}`, {
        key: "scoped",
        method: "POST",
        headers: { "a2a-version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
      });
    expect((await rpc("helpdesk/triage")).status).toBe(404);
    // A task of another agent, asked for through the scoped agent, is no task at all.
    const triage = await client("helpdesk/triage");
    const other = (await triage.sendMessage(message("ticket 7"))) as Task;
    const asker = await client("helpdesk/asker", "scoped");
    await expect(asker.getTask({ tenant: "", id: other.id, historyLength: 0 })).rejects.toThrow(
      `there is no task ${other.id}`,
    );
    await expect(asker.getTask({ tenant: "", id: "job_missing", historyLength: 0 })).rejects.toThrow(
      "there is no task job_missing",
    );
  });
});
