// The offline `test` provider: a deterministic model that makes every feature demonstrable
// without a network. With a script it plays the script's turns in order and fails the job on a
// model call the script did not plan; without one it calls each function it may call once,
// with arguments sampled from the schema, then answers in text.
import { Oz0Error } from "@oz0/sdk";
import { deepFreeze, formatManifestIssue, parseSafeYaml, type SafeYamlDocument } from "@oz0/sdk/internal";
import { sampleFromSchema } from "./sample.js";
import { estimateValueTokens } from "./tokens.js";
import type { LanguageModel, ModelReply, ModelRequest } from "./types.js";

/** One planned model reply. */
export type TestTurn =
  | { readonly call: { readonly function: string; readonly args: Readonly<Record<string, unknown>> } }
  | { readonly text: string }
  | { readonly output: unknown };

export interface TestScript {
  /** The script's path in its plugin, for messages. */
  readonly file: string;
  readonly turns: readonly TestTurn[];
}

/** The provider ID of the test model, as in `model: { use: test }` and `test:<model>`. */
export const TEST_PROVIDER = "test";

/** Built-ins the unscripted model never calls on its own: they end the job or wait for a person. */
const NOT_CALLED_UNSCRIPTED = /^oz__/;

/**
 * Reads a test provider script:
 * ```yaml
 * turns:
 *   - call: { function: tickets__lookup, args: { id: 7 } }
 *   - text: "billing"
 *   - output: { queue: billing }
 * ```
 * Throws INVALID_MANIFEST with the place of each problem.
 */
export function parseTestScript(text: string, file: string): TestScript {
  const doc = parseSafeYaml(text, { file });
  const problems: Problem[] = [];
  const root = doc.value;
  if (!isMap(root)) {
    throw scriptError(doc, [{ path: [], message: "a test script is a map with turns: [ … ]" }]);
  }
  for (const key of Object.keys(root)) {
    if (key !== "turns")
      problems.push({ path: [key], message: `unknown key '${key}'; a script has only turns:`, at: "key" });
  }
  const turns: TestTurn[] = [];
  if (!Array.isArray(root.turns) || root.turns.length === 0) {
    problems.push({ path: ["turns"], message: "turns: lists the model's replies in order, one or more" });
  } else {
    root.turns.forEach((turn, index) => {
      const read = readTurn(turn, ["turns", index], problems);
      if (read !== undefined) turns.push(read);
    });
  }
  if (problems.length > 0) throw scriptError(doc, problems);
  return { file, turns };
}

/** How many scripts `keptTestScript` keeps read; a process plays few. */
const SCRIPTS_KEPT = 64;
const keptScripts = new Map<string, TestScript>();

/**
 * `parseTestScript`, once per script text: every job of an agent reads its script again (so an
 * edit counts from the next job) and most often finds it as it was. Kept frozen, since every
 * job that plays it shares it; a script with problems is not kept, and throws each time.
 */
export function keptTestScript(text: string, file: string): TestScript {
  const key = `${file}\0${text}`;
  let script = keptScripts.get(key);
  if (script === undefined) {
    script = deepFreeze(parseTestScript(text, file));
    if (keptScripts.size >= SCRIPTS_KEPT) keptScripts.delete(keptScripts.keys().next().value!);
  } else keptScripts.delete(key);
  keptScripts.set(key, script);
  return script;
}

interface Problem {
  readonly path: (string | number)[];
  readonly message: string;
  readonly at?: "key" | "value";
}

const TURN_KINDS = ["call", "text", "output"] as const;

function readTurn(turn: unknown, path: (string | number)[], problems: Problem[]): TestTurn | undefined {
  const kinds = isMap(turn) ? Object.keys(turn) : [];
  const known = kinds.filter((key) => (TURN_KINDS as readonly string[]).includes(key));
  if (!isMap(turn) || known.length !== 1 || kinds.length !== 1) {
    const extra = kinds.find((key) => !(TURN_KINDS as readonly string[]).includes(key));
    problems.push(
      extra !== undefined
        ? {
            path: [...path, extra],
            message: `unknown key '${extra}'; a turn is one of call:, text:, output:`,
            at: "key",
          }
        : { path, message: 'a turn is exactly one of call: { function, args }, text: "…" or output: { … }' },
    );
    return undefined;
  }
  if ("text" in turn) {
    if (typeof turn.text === "string") return { text: turn.text };
    problems.push({ path: [...path, "text"], message: "text: is the model's answer, a string" });
    return undefined;
  }
  if ("output" in turn) return { output: turn.output };
  const call = turn.call;
  if (!isMap(call) || typeof call.function !== "string" || call.function === "") {
    problems.push({
      path: [...path, "call"],
      message:
        "call: names the function the model calls, as the model sees it: { function: tickets__lookup, args: { … } }",
    });
    return undefined;
  }
  const unknown = Object.keys(call).find((key) => key !== "function" && key !== "args");
  if (unknown !== undefined) {
    problems.push({
      path: [...path, "call", unknown],
      message: `unknown key '${unknown}'; a call has function: and args:`,
      at: "key",
    });
    return undefined;
  }
  if (call.args !== undefined && !isMap(call.args)) {
    problems.push({ path: [...path, "call", "args"], message: "args: is a map of the call's arguments" });
    return undefined;
  }
  return {
    call: { function: call.function, args: (call.args as Record<string, unknown> | undefined) ?? {} },
  };
}

function scriptError(doc: SafeYamlDocument, problems: readonly Problem[]): Oz0Error {
  const issues = problems.map((problem) => {
    const { line, column } = doc.locate(problem.path, problem.at ?? "value");
    return { file: doc.file, line, column, path: problem.path, message: problem.message };
  });
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return new Oz0Error(
    "INVALID_MANIFEST",
    `${doc.file}: ${count} in the test script; fix them and run again:\n${issues.map(formatManifestIssue).join("\n")}`,
    { data: { issues } },
  );
}

/**
 * The test model. `script` plays turns in order, one per model step; without it the model
 * calls each function it is offered once (built-ins `oz__*` aside), then answers.
 */
export function testModel(options: { readonly script?: TestScript | undefined } = {}): LanguageModel {
  const { script } = options;
  if (script === undefined) {
    return {
      id: `${TEST_PROVIDER}:auto`,
      generate: async (request) => (request.sampling === true ? sampled(request) : unscripted(request)),
    };
  }
  return {
    id: `${TEST_PROVIDER}:${script.file}`,
    generate: async (request) => (request.sampling === true ? sampled(request) : scripted(script, request)),
    finish: (steps) => unplayed(script, steps),
  };
}

function scripted(script: TestScript, request: ModelRequest): ModelReply {
  const turn = script.turns[request.step - 1];
  if (turn === undefined) {
    const planned = script.turns.length;
    throw new Oz0Error(
      "UNPLANNED_MODEL_CALL",
      `the test model's script ${script.file} plans ${planned} turn${planned === 1 ? "" : "s"}, and the job asked ` +
        `for model call ${request.step}. Add the turn the job needs to ${script.file}, or end the script with text: or output:.`,
      { data: { script: script.file, turns: planned, step: request.step } },
    );
  }
  if ("call" in turn) return reply(request, { calls: [{ name: turn.call.function, args: turn.call.args }] });
  if ("text" in turn) return textReply(request, turn.text);
  return reply(request, { calls: [], output: turn.output });
}

/**
 * An MCP server's sampling request: answered from its last user message, playing no turn of a
 * script, and cut, as a real model stops, at the request's `maxOutputTokens` (words, here).
 */
function sampled(request: ModelRequest): ModelReply {
  const said = [...request.messages].reverse().find((message) => message.role === "user");
  const words = `Sampled: ${said?.role === "user" ? said.content : ""}`.split(" ");
  const cap = request.maxOutputTokens ?? words.length;
  const answer = textReply(request, words.slice(0, cap).join(" "));
  return words.length > cap ? { ...answer, cutShort: true } : answer;
}

/** What a script planned and the job never played, said once the job has ended. */
function unplayed(script: TestScript, steps: number): string[] {
  const left = script.turns.length - steps;
  if (left <= 0) return [];
  const first = steps + 1;
  const which = left === 1 ? `turn ${first}` : `turns ${first}–${script.turns.length}`;
  return [
    `the test model's script ${script.file} left ${which} of ${script.turns.length} unused: the job ended after ${steps} model call${steps === 1 ? "" : "s"}`,
  ];
}

function unscripted(request: ModelRequest): ModelReply {
  const callable = request.functions.filter((fn) => !NOT_CALLED_UNSCRIPTED.test(fn.name));
  const next = callable[request.step - 1];
  if (next !== undefined) {
    return reply(request, { calls: [{ name: next.name, args: sampleFromSchema(next.inputSchema) }] });
  }
  if (request.outputSchema !== undefined) {
    return reply(request, { calls: [], output: sampleFromSchema(request.outputSchema) });
  }
  if (request.step === callable.length + 1) {
    const called = callable.map((fn) => fn.name);
    return textReply(
      request,
      called.length === 0
        ? "Done (the offline test model answered without calling a function)."
        : `Done: called ${called.join(", ")} (the offline test model).`,
    );
  }
  const said = [...request.messages].reverse().find((message) => message.role === "user");
  return textReply(request, `You said: ${said?.role === "user" ? said.content : ""}`);
}

function textReply(request: ModelRequest, text: string): ModelReply {
  if (request.onText !== undefined) {
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) request.onText(piece);
  }
  return reply(request, { calls: [], text });
}

function reply(
  request: ModelRequest,
  content: { calls: ModelReply["calls"]; text?: string; output?: unknown },
): ModelReply {
  const outputTokens =
    estimateValueTokens(content.text) +
    estimateValueTokens(content.output) +
    estimateValueTokens(content.calls);
  return { ...content, usage: { inputTokens: request.estimatedInputTokens, outputTokens } };
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
