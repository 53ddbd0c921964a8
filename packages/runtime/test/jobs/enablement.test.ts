// Enablement of a plugin's parts: a tool registration's disable() takes the tool out of the agent's
// toolset and the calls at once, a `required` tool (ToolSpec.Required: "treated as core and built
// even without plugin enablement") stays; and PromptInventorySpec.GetTools's structured list
// reaches prompt construction.
import type { PluginConfig } from "@oz0/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LanguageModel, ModelRequest } from "../../src/models/index.js";
import type { PartSource } from "../../src/tools/index.js";
import { type Harness, harness, ofKind, TENANT, using } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await harness(["switchboard"]);
});
afterAll(async () => {
  await h.close();
});

function registration(tool: "lamp" | "core") {
  const found = h.source.loadInstalled(TENANT, "switchboard").code?.registration("tool", tool);
  if (found === undefined) throw new Error(`no tool ${tool}`);
  return found;
}

afterEach(() => {
  registration("lamp").enable();
  registration("core").enable();
});

/** A model that runs `steps` in turn, each seeing the request, then answers done. */
function model(steps: ((request: ModelRequest) => { name: string; args: unknown }[] | undefined)[]) {
  const seen: ModelRequest[] = [];
  const answer: LanguageModel = {
    id: "test:enablement",
    async generate(request) {
      seen.push(request);
      const calls = steps[request.step - 1]?.(request) ?? [];
      return calls.length === 0
        ? { text: "done", calls: [], usage: { inputTokens: 1, outputTokens: 1 } }
        : { calls, usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
  return { answer, seen };
}

const offered = (request: ModelRequest | undefined) => request?.functions.map((fn) => fn.name) ?? [];
const system = (request: ModelRequest | undefined) =>
  request?.messages.find((message) => message.role === "system")?.content ?? "";

describe("a tool registration's disable()", () => {
  it("takes the tool out of the agent's toolset at once: the next model step is not offered it, and a call is refused", async () => {
    const { answer, seen } = model([
      () => {
        registration("lamp").disable();
        return [{ name: "lamp__on", args: {} }];
      },
    ]);
    const { job, events } = await h.run("switchboard/operator", "go", { models: using(answer) });
    expect(job.status).toBe("succeeded");
    expect(offered(seen[0])).toEqual(["lamp__on", "core__ping"]);
    expect(offered(seen[1])).toEqual(["core__ping"]);
    const [result] = ofKind(events, "tool_result");
    expect(result?.data).toMatchObject({ ok: false });
    expect(JSON.stringify(result?.data)).toContain("tool lamp of switchboard is disabled by its plugin");
  });

  it("a tool disabled before the job starts is not offered at all, and enable() brings it back", async () => {
    registration("lamp").disable();
    const first = model([]);
    const ran = await h.run("switchboard/operator", "go", { models: using(first.answer) });
    expect(ran.job.status, JSON.stringify(ran.job)).toBe("succeeded");
    expect(offered(first.seen[0])).toEqual(["core__ping"]);
    registration("lamp").enable();
    const second = model([]);
    await h.run("switchboard/operator", "go", { models: using(second.answer) });
    expect(offered(second.seen[0])).toEqual(["lamp__on", "core__ping"]);
  });
});

describe("ToolSpec.Required: treated as core and built even without plugin enablement", () => {
  it("a required tool whose registration is disabled is still offered and called", async () => {
    registration("core").disable();
    const { answer, seen } = model([() => [{ name: "core__ping", args: {} }]]);
    const { job, events } = await h.run("switchboard/operator", "go", { models: using(answer) });
    expect(job.status).toBe("succeeded");
    expect(offered(seen[0])).toContain("core__ping");
    expect(ofKind(events, "tool_result")[0]?.data).toMatchObject({ ok: true });
  });
});

describe("PromptInventorySpec.GetTools contributes its structured list to prompt construction", () => {
  it("the agent's start-up context lists the plugin's inventory, each tool with its description and input", async () => {
    const { answer, seen } = model([]);
    const { events } = await h.run("switchboard/operator", "go", { models: using(answer) });
    const prompt = system(seen[0]);
    expect(prompt).toContain("## Tools switchboard provides");
    expect(prompt).toContain(`- switch.flip: Flips a switch for switchboard/operator in ${TENANT}.`);
    expect(prompt).toContain(
      '- switch.read: Reads a switch. Input: {"type":"object","properties":{"id":{"type":"string"}}}',
    );
    const part = ofKind(events, "context_part_contributed").find(
      (one) => one.data.mechanism === "prompt_inventory",
    );
    expect(part?.data).toMatchObject({ retained: true, section_id: "switchboard/inventory" });
  });

  it("a disabled inventory contributes nothing", async () => {
    const inventory = h.source
      .loadInstalled(TENANT, "switchboard")
      .code?.registrations("prompt_inventory")[0];
    inventory?.disable();
    try {
      const { answer, seen } = model([]);
      await h.run("switchboard/operator", "go", { models: using(answer) });
      expect(system(seen[0])).not.toContain("switch.flip");
    } finally {
      inventory?.enable();
    }
  });
});

describe("the operator's config reaches a system prompt's build(ctx)", () => {
  it("SystemPromptContext.config is the config the plugin runs with in the tenant", async () => {
    const hs = await harness(["narrator-config"]);
    try {
      const configs: Record<string, PluginConfig> = { "narrator-config": { tone: "solemn" } };
      const source: PartSource = Object.assign(Object.create(hs.source) as PartSource, {
        config: (_tenant: string, plugin: string) => configs[plugin] ?? {},
      });
      const { answer, seen } = model([]);
      await hs.run("narrator-config/teller", "go", { models: using(answer), source });
      expect(system(seen[0])).toContain("Speak in a solemn tone.");
    } finally {
      await hs.close();
    }
  });
});
