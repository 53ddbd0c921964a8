// oz0's built-in functions, the tool `oz` (a model sees `oz__fail`). `oz.skill`,
// `oz.find_tools` and `oz.propose_skill` run like any function; `oz.fail`, `oz.ask_user` and
// `oz.delegate` change the job itself (end it, or make it wait for a person or a child job), so
// the loop carries them out once their call has passed the same checks as any other; and
// `oz.call_tool` stands for the function it names, which the loop calls in its place.
import {
  BUILTIN_FUNCTIONS,
  type BuiltinFunction,
  type FunctionCall,
  type JsonSchemaObject,
  modelVisibleName,
  Oz0Error,
} from "@oz0/sdk";
import type { CallableFunction } from "../tools/index.js";

export { BUILTIN_FUNCTIONS, type BuiltinFunction };

/** Built-ins the loop carries out itself instead of running them. */
export const JOB_CONTROL_BUILTINS: ReadonlySet<string> = new Set(["fail", "ask_user", "delegate"]);

export interface SkillEntry {
  readonly plugin: string;
  readonly name: string;
  /** As the index shows it: bare for the agent's own plugin, else `<plugin>/<skill>`. */
  readonly label: string;
  readonly description: string;
  readonly body: string;
  /** The skill folder's bundled text files (`references/x.md`), read with oz.skill's `file`. */
  readonly files?: Readonly<Record<string, string>>;
}

/** An agent this one may delegate to, as `delegation.allow` names it, with its description. */
export interface DelegateEntry {
  readonly name: string;
  readonly description?: string | undefined;
}

/** What the built-ins are built from: the agent's contract and its skills. */
export interface BuiltinContext {
  readonly failureKinds: readonly string[];
  readonly skills: readonly SkillEntry[];
  /**
   * Other plugins' skills its `uses:` declares that the tenant has not granted: left out of the
   * index, and an oz.skill read of one is refused as not granted rather than as unknown.
   */
  readonly ungrantedSkills?: readonly { readonly plugin: string; readonly name: string }[];
  /** Agents this one may delegate to, as `delegation.allow` names them. */
  readonly delegates: readonly DelegateEntry[];
  /** With `skills.propose`: records a proposal for a person to review, and the plugin it changes. */
  readonly propose?:
    | {
        readonly into: string;
        readonly record: (args: Record<string, unknown>, call: FunctionCall) => Promise<unknown>;
      }
    | undefined;
}

/** The callable form of a built-in, for the model's list and for the dispatch path's checks. */
export function builtinFunction(name: BuiltinFunction, context: BuiltinContext): CallableFunction {
  const spec = SPECS[name](context);
  return {
    address: `oz.${name}`,
    plugin: undefined,
    tool: "oz",
    function: name,
    modelName: modelVisibleName("oz", name),
    description: spec.description,
    inputSchema: spec.input,
    run: spec.run ?? carriedOutByTheLoop(name),
  };
}

interface Spec {
  readonly description: string;
  readonly input: JsonSchemaObject;
  readonly run?: (args: Record<string, unknown>, call: FunctionCall) => Promise<unknown>;
}

const SPECS: Record<BuiltinFunction, (context: BuiltinContext) => Spec> = {
  fail: ({ failureKinds }) => ({
    description:
      failureKinds.length === 0
        ? "End the job as failed, saying why. This agent declares no failure kinds, so the job ends as undeclared."
        : `End the job as failed, with one of the failure kinds this agent declares (${failureKinds.join(", ")}) and a message saying what went wrong.`,
    input: {
      type: "object",
      properties: {
        // Not an enum: a kind the agent does not declare ends the job as undeclared, as the
        // spec says, rather than going back to the model.
        kind:
          failureKinds.length === 0
            ? { type: "string" }
            : { type: "string", description: `One of: ${failureKinds.join(", ")}.` },
        message: { type: "string", minLength: 1 },
      },
      required: ["kind", "message"],
      additionalProperties: false,
    },
  }),
  ask_user: () => ({
    description:
      "Ask the person a question and wait for the answer. The job waits, costing nothing, until they answer (oz0 job answer).",
    input: {
      type: "object",
      properties: { question: { type: "string", minLength: 1 } },
      required: ["question"],
      additionalProperties: false,
    },
  }),
  skill: ({ skills }) => ({
    description:
      "Read the body of one of your skills, by its name in the skills index; with file, one of the files bundled with it (such as references/guide.md).",
    input: {
      type: "object",
      properties: {
        name: skills.length === 0 ? { type: "string" } : { type: "string", enum: skillNames(skills) },
        file: { type: "string", minLength: 1 },
      },
      required: ["name"],
      additionalProperties: false,
    },
    run: async (args) =>
      readSkill(skills, String(args.name), args.file === undefined ? undefined : String(args.file)),
  }),
  delegate: ({ delegates }) => ({
    description:
      "Start a job of another agent with its input, and wait for its answer. " +
      (delegates.length === 0
        ? "This agent may delegate to none."
        : `This agent may delegate to: ${delegates.map(describeDelegate).join("; ")}.`),
    input: {
      type: "object",
      properties: {
        agent:
          delegates.length === 0
            ? { type: "string" }
            : { type: "string", enum: delegates.map((entry) => entry.name) },
        input: { description: "Text, or an object for an agent with an input schema." },
      },
      required: ["agent", "input"],
      additionalProperties: false,
    },
  }),
  find_tools: () => ({
    description:
      "Search the functions you may call now by words of their name or description (an empty query lists them all). " +
      "Each result gives the function's name and input schema; call it with oz__call_tool.",
    input: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer", minimum: 1, maximum: 50 },
      },
      required: ["query"],
      additionalProperties: false,
    },
  }),
  call_tool: () => ({
    description:
      "Call a function that oz__find_tools found, by its name, with arguments that match its input schema.",
    input: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        args: { type: "object" },
      },
      required: ["name"],
      additionalProperties: false,
    },
  }),
  propose_skill: ({ propose }) => ({
    description:
      `Propose a new skill, or a new version of one, for ${propose === undefined ? "a plugin" : `plugin ${propose.into}`}; ` +
      "a person reviews the proposal before it becomes a pull request. Give the whole SKILL.md body, and say why.",
    input: {
      type: "object",
      properties: {
        name: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", maxLength: 63 },
        description: { type: "string", minLength: 1, maxLength: 500 },
        body: { type: "string", minLength: 1 },
        title: { type: "string", maxLength: 200 },
        why: { type: "string" },
      },
      required: ["name", "description", "body"],
      additionalProperties: false,
    },
    ...(propose === undefined ? {} : { run: propose.record }),
  }),
};

function describeDelegate(entry: DelegateEntry): string {
  const description = entry.description?.trim();
  return description === undefined || description === "" ? entry.name : `${entry.name} (${description})`;
}

function skillNames(skills: readonly SkillEntry[]): string[] {
  return skills.map((skill) => skill.label);
}

function readSkill(
  skills: readonly SkillEntry[],
  name: string,
  file: string | undefined,
): { name: string; body: string } | { name: string; file: string; text: string } {
  const skill = skills.find((entry) => entry.label === name || `${entry.plugin}/${entry.name}` === name);
  if (skill === undefined) {
    throw new Oz0Error(
      "NOT_FOUND",
      `there is no skill ${name} in your skills index; the skills you have: ${skillNames(skills).join(", ") || "none"}.`,
      { data: { kind: "skill", name } },
    );
  }
  if (file === undefined) return { name: skill.label, body: skill.body };
  // Only the files bundled with the skill: a path is a key of that map, never a place on disk.
  const text =
    skill.files === undefined ? undefined : Object.hasOwn(skill.files, file) ? skill.files[file] : undefined;
  if (text === undefined) {
    const have = Object.keys(skill.files ?? {});
    throw new Oz0Error(
      "NOT_FOUND",
      `skill ${skill.label} has no bundled file ${file}; its files: ${have.join(", ") || "none"}.`,
      { data: { kind: "skill file", name: `${skill.label}:${file}` } },
    );
  }
  return { name: skill.label, file, text };
}

function carriedOutByTheLoop(name: string): () => Promise<never> {
  return async () => {
    throw new Oz0Error("INTERNAL", `oz.${name} changes the job itself and runs only inside a job's loop.`);
  };
}
