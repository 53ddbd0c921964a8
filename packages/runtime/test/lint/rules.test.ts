import { describe, expect, it } from "vitest";
import { LINT_CODES, type LintCode } from "../../src/lint/index.js";
import { fixture, lintLines } from "./fixtures.js";

interface RuleCase {
  readonly code: LintCode;
  readonly triggers: string;
  readonly passes: string;
  /** Every line lint prints for the fixture that triggers the rule. */
  readonly lines: readonly string[];
  /**
   * What lint prints for the fixture that passes, when not nothing: an agent on a remote
   * runtime is refused (OZ-S023) until this oz0 has one.
   */
  readonly passLines?: readonly string[];
}

const CASES: readonly RuleCase[] = [
  {
    code: "OZ-E001",
    triggers: "reports every value that does not match the manifest schema, at its line and column",
    passes: "accepts a manifest that matches the schema",
    lines: [
      "plugin.yaml:2:10 error OZ-E001 'one' is not a semantic version; write MAJOR.MINOR.PATCH, such as 1.2.0",
      "plugin.yaml:10:19 error OZ-E001 tool_loading must be eager or lazy, not 'sometimes'",
    ],
  },
  {
    code: "OZ-E002",
    triggers: "reports a YAML syntax error and a Markdown agent without front matter, and goes on",
    passes: "reads YAML and Markdown agents that parse",
    lines: [
      "agents/broken.yaml:3:1 error OZ-E002 YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]",
      "agents/no-front-matter.md:1:1 error OZ-E002 the file must start with YAML front matter: a --- line, the YAML, then another --- line",
    ],
  },
  {
    code: "OZ-E003",
    triggers: "reports a typo'd key with the key it probably meant",
    passes: "finds no unknown key in a manifest with known keys only",
    lines: ["plugin.yaml:5:5 error OZ-E003 unknown key 'instruction'; did you mean 'instructions'?"],
  },
  {
    code: "OZ-E004",
    triggers: "reports a code entry whose setup throws, at main:",
    passes: "loads a code entry whose setup registers its tools",
    lines: [
      "plugin.yaml:4:7 error OZ-E004 setup(host) in index.js failed: the notes store is not configured",
    ],
  },
  {
    code: "OZ-E005",
    triggers:
      "refuses a JSON Schema with a type that does not exist or a keyword ajv does not know, at its place",
    passes: "accepts JSON Schemas with known types, formats and x- annotations",
    lines: [
      'schemas/answer.json:4:48 error OZ-E005 not a valid JSON Schema: strict mode: unknown keyword: "maxLenght"',
      "schemas/ask.json:4:27 error OZ-E005 not a valid JSON Schema: /properties/question/type must be equal to one of the allowed values (array, boolean, integer, null, number, object, string)",
    ],
  },
  {
    code: "OZ-S001",
    triggers: "refuses instructions that escape the plugin folder",
    passes: "accepts instructions inside the plugin folder",
    lines: [
      "plugin.yaml:7:19 error OZ-S001 path '../shared/helper.md' must stay inside the plugin folder (no '..')",
    ],
  },
  {
    code: "OZ-S002",
    triggers: "reports every named file that does not exist",
    passes: "accepts named files that exist",
    lines: [
      "plugin.yaml:7:19 error OZ-S002 instructions 'prompts/missing.md' does not exist in the plugin folder; create it, or fix the path",
      "plugin.yaml:9:20 error OZ-S002 output_schema 'schemas/answer.json' does not exist in the plugin folder; create it, or fix the path",
    ],
  },
  {
    code: "OZ-S003",
    triggers: "warns about an agent with neither input nor input_schema",
    passes: "accepts an agent that declares input: text",
    lines: [
      `plugin.yaml:4:11 warning OZ-S003 agent 'helper' declares neither input nor input_schema; add input: text, or input_schema naming a JSON Schema file (an error from schema: "1.0" on)`,
      `plugin.yaml:4:11 warning OZ-S004 agent 'helper' declares neither output nor output_schema; add output: text, or output_schema naming a JSON Schema file (an error from schema: "1.0" on)`,
    ],
  },
  {
    code: "OZ-S004",
    triggers: "warns about an agent with neither output nor output_schema",
    passes: "accepts an agent that declares output_schema",
    lines: [
      `plugin.yaml:4:11 warning OZ-S004 agent 'helper' declares neither output nor output_schema; add output: text, or output_schema naming a JSON Schema file (an error from schema: "1.0" on)`,
    ],
  },
  {
    code: "OZ-S005",
    triggers: "reports x-oz0-diff naming one property twice, or a property the schema lacks",
    passes: "accepts x-oz0-diff naming two different properties that exist",
    lines: [
      "schemas/change.json:7:29 error OZ-S005 x-oz0-diff.before names 'previous_text', which is not a property of the schema; its properties are summary, new_text",
      "schemas/review.json:16:14 error OZ-S005 x-oz0-diff compares 'old_text' with itself; name two different properties",
    ],
  },
  {
    code: "OZ-S006",
    triggers: "reports x-oz0-order naming a property the schema lacks",
    passes: "accepts x-oz0-order naming properties that exist",
    lines: [
      "schemas/review.json:16:5 error OZ-S006 x-oz0-order names 'verdict', which is not a property of the schema; its properties are summary, old_text, new_text",
    ],
  },
  {
    code: "OZ-S007",
    triggers: "warns, from the measured listing, about a model-visible name longer than 64 characters",
    passes: "accepts model-visible names of 64 characters or fewer",
    lines: [
      "tools.listing.json:5:15 warning OZ-S007 a model would see long-names/quarterly_financial_reporting_toolkit.generate_consolidated_summary as 'quarterly_financial_reporting_toolkit__generate_consolidated_summary', 68 characters; a node leaves out a function whose name is over 64, whatever the provider: shorten the tool ID or the function name",
    ],
  },
  {
    code: "OZ-S008",
    triggers: "warns about tools other than oz.ask_user on a JSON-lines harness agent",
    passes: "accepts oz.ask_user on a JSON-lines harness agent",
    lines: [
      "plugin.yaml:7:26 warning OZ-S008 agent 'coder' runs on the JSON-lines harness 'codex', which uses only oz.ask_user, so it never gets 'oz.fail'; remove it, or use an ACP harness",
    ],
  },
  {
    code: "OZ-S009",
    triggers: "warns that tool_loading: lazy does nothing on a JSON-lines harness or a remote agent",
    passes: "accepts tool_loading: lazy on an ACP harness agent",
    lines: [
      "plugin.yaml:10:19 warning OZ-S009 agent 'coder' runs on the JSON-lines harness 'codex'; tool_loading: lazy does nothing there, so remove it",
      "plugin.yaml:14:19 warning OZ-S009 agent 'remote-helper' is a remote agent, whose loop runs at its provider; tool_loading: lazy does nothing there, so remove it",
    ],
  },
  {
    code: "OZ-S010",
    triggers:
      "warns about a harness this plugin does not provide that is not an official one, naming no provider it does not know",
    passes: "accepts an official harness",
    lines: [
      "plugin.yaml:6:14 warning OZ-S010 agent 'coder' runs on harness 'homebrew-agent', which this plugin does not provide and which is not one of oz0's official harnesses (claude-code, gemini-cli, codex, claude-agent-sdk); another plugin must provide it: check that you trust that plugin, or use an official one",
    ],
  },
  {
    code: "OZ-S011",
    triggers: "refuses skills.propose beside changes:",
    passes: "accepts skills.propose without changes:",
    lines: ["plugin.yaml:20:5 error OZ-S011 skills.propose cannot sit beside changes:; keep one of them"],
  },
  {
    code: "OZ-S012",
    triggers: "refuses skills.propose on a remote agent",
    passes: "accepts skills.propose on an agent that runs in oz0",
    lines: ["plugin.yaml:15:9 error OZ-S012 a remote agent cannot propose skills; remove skills.propose"],
  },
  {
    code: "OZ-S013",
    triggers: "refuses a propose argument the platform sets",
    passes: "accepts propose arguments the platform leaves to the agent",
    lines: [
      "plugin.yaml:21:11 error OZ-S013 the platform sets 'repository' of the apply call itself (repository, base, patch, title, body, draft); remove it",
    ],
  },
  {
    code: "OZ-S014",
    triggers: "refuses skills with more than 64 entries",
    passes: "accepts a short skills list",
    lines: ["plugin.yaml:13:13 error OZ-S014 at most 64 skills are allowed; found 65"],
  },
  {
    code: "OZ-S015",
    triggers: "refuses failures with a platform kind, a description over 200 characters and a repeated kind",
    passes: "accepts failures within the spec's limits",
    lines: [
      "plugin.yaml:11:15 error OZ-S015 'timeout' is one of the platform's own failure kinds (timeout, undeclared, cancelled, killed, invalid_input, invalid_output, max_turns, token_limit, budget_exceeded, model_error, tool_clash, name_clash, policy_denied, unplanned_model_call, dead_letter, internal, step_failed, part_removed, remote_error); give the agent's kind another name",
      "plugin.yaml:14:22 error OZ-S015 a failure's description may be at most 200 characters",
      "plugin.yaml:15:15 error OZ-S015 failure kind 'no_answer' is declared twice; each kind appears once",
    ],
  },
  {
    code: "OZ-S016",
    triggers: "refuses more than 16 tags and a tag with capitals",
    passes: "accepts lowercase tags within the limit",
    lines: [
      "plugin.yaml:10:11 error OZ-S016 at most 16 tags are allowed; found 18",
      "plugin.yaml:16:12 error OZ-S016 tag name 'HR' must be lowercase letters, digits, '.', '_' and '-'",
    ],
  },
  {
    code: "OZ-S017",
    triggers: "refuses a Markdown agent that also names instructions",
    passes: "accepts a Markdown agent whose body is its prompt",
    lines: [
      "agents/writer.md:4:1 error OZ-S017 a Markdown agent has no instructions: its body is the prompt; remove the key, or write the agent as YAML",
    ],
  },
  {
    code: "OZ-S018",
    triggers: "reports declared capabilities and tools that do not match what the code registers",
    passes: "accepts capabilities that say what the code registers",
    lines: [
      "plugin.yaml:5:1 error OZ-S018 the code registers system_prompt, which capabilities: does not list; add system_prompt to it",
      "plugin.yaml:5:22 error OZ-S018 capabilities: lists hook, which the code never registers; remove it, or register it in setup(host)",
      "plugin.yaml:8:9 error OZ-S018 tools: declares 'archive', which neither the code registers nor an mcp: server provides; register it in setup(host), or give it an mcp: server",
    ],
  },
  {
    code: "OZ-S019",
    triggers: "warns about a bare name of another plugin's part, with the address to write",
    passes: "accepts the spec's example, which names github's parts by address",
    lines: [
      "plugin.yaml:11:9 warning OZ-S019 'oz0_github.list_pull_requests' is github's function, named bare; write its address github/oz0_github.list_pull_requests (oz0 plugin lint --fix writes it)",
      "plugin.yaml:14:15 warning OZ-S019 'oz0-github' is github's agent, named bare; write its address github/oz0-github (oz0 plugin lint --fix writes it)",
    ],
  },
  {
    code: "OZ-S020",
    triggers: "warns about another plugin's function or skill that uses: does not list",
    passes: "accepts other plugins' parts that uses: lists, a tool pattern included",
    lines: [
      "plugin.yaml:13:13 warning OZ-S020 tools names github/oz0_github.get_file, which uses.github.tools does not list; add oz0_github.get_file there: a job's call of it is refused (NOT_GRANTED) until uses: grants it",
      "plugin.yaml:13:41 warning OZ-S020 tools names jira/issues.search, but uses: does not list plugin 'jira'; add it under uses: with tools: [issues.search]: jira must be installed, and a job's call of it is refused (NOT_GRANTED) until uses: grants it",
      "plugin.yaml:14:14 warning OZ-S020 skills names web/research, but uses: does not list plugin 'web'; add it under uses: with skills: [research]: until then a job leaves the skill out",
    ],
  },
  {
    code: "OZ-S023",
    triggers: "refuses an agent on a runtime this oz0 does not have, naming the runtimes it has",
    passes: "accepts pydantic-ai, oz0's own loop",
    lines: [
      "plugin.yaml:7:14 error OZ-S023 agent 'helper' names runtime 'remote:nowhere', which this oz0 does not have (its remote runtimes are remote:a2a (an outside agent over A2A), remote:anthropic (an agent at Claude Managed Agents)); its runtimes: pydantic-ai (the default, oz0's own loop), openai-agents, remote:a2a, remote:anthropic, harness:<name>. Leave runtime: out to run the agent on oz0's own loop.",
    ],
  },
  {
    code: "OZ-S024",
    triggers: "refuses a built-in oz0 does not have, with the one it probably meant",
    passes: "accepts built-ins oz0 has",
    lines: [
      "plugin.yaml:8:26 error OZ-S024 oz0 has no built-in oz.fial; did you mean oz.fail? Its built-ins: oz.fail, oz.ask_user, oz.skill, oz.delegate, oz.find_tools, oz.call_tool, oz.propose_skill.",
    ],
  },
  {
    code: "OZ-S025",
    triggers:
      "refuses a script turn it cannot read, a call of a function the agent lacks, and an oz.fail kind it does not declare",
    passes: "accepts a script that calls what the agent has and fails with a kind it declares",
    lines: [
      "scripts/broken.yaml:2:5 error OZ-S025 unknown key 'say'; a turn is one of call:, text:, output:",
      "scripts/plays.yaml:2:23 error OZ-S025 turn 1 calls notes__lookup, which agent 'helper' is not offered (it is offered oz__fail); add the function to its tools:, or call one it has (as the model sees it, <tool>__<function>)",
      "scripts/plays.yaml:3:47 error OZ-S025 turn 2 ends the job with oz.fail kind 'gave_up', which agent 'helper' does not declare (it declares no_answer); declare it under failures:, or fail with a kind it declares",
    ],
  },
  {
    code: "OZ-S026",
    triggers: "refuses a function its own tool lacks, in install's words",
    passes: "accepts a function its own tool has",
    lines: [
      "plugin.yaml:12:13 error OZ-S026 notes.lokup: tool notes of functions-s026-triggers 1.0.0 has no function lokup",
    ],
  },
  {
    code: "OZ-S028",
    triggers: "refuses a routine's tool its agent may not call, and limits on a routine that runs a flow",
    passes: "accepts a routine whose tools are its agent's, and a flow's routine without tools or limits",
    lines: [
      "plugin.yaml:19:22 error OZ-S028 routine nightly lists oz.ask_user, which agent helper may not call (its tools: oz.fail); a routine's tools are a subset of its agent's",
      "plugin.yaml:23:13 error OZ-S028 routine weekly runs flow routines-s028-triggers/tidy, and limits: applies to an agent's job; leave it out (a flow's steps name what it calls)",
    ],
  },
  {
    code: "OZ-S029",
    triggers:
      "refuses a routine its identity may not run, a job.ended routine that would fire itself, and a schedule that never fires",
    passes:
      "accepts an identity whose agents include the routine's, a job.ended of another agent, and a zoned schedule",
    lines: [
      "plugin.yaml:19:25 error OZ-S029 routine nightly runs routines-s029-triggers/helper, which its identity's agents (other) leave out; add it, or the routine's jobs are refused",
      "plugin.yaml:21:12 error OZ-S029 routine again runs routines-s029-triggers/helper when a job of routines-s029-triggers/helper ends, which would fire it again without end; watch another agent",
      "plugin.yaml:24:15 error OZ-S029 the schedule '0 0 30 2 *' never fires; give it a date that comes",
    ],
  },
  {
    code: "OZ-S030",
    triggers:
      "reports each part of a Claude Code plugin oz0 cannot honour: hooks, Claude Code tools, allowed-tools",
    passes: "reads a Claude Code plugin whose agent and skill map onto oz0",
    lines: [
      "agents/reviewer.md:4:1 error OZ-S030 tools: names Claude Code's tools (Read, Grep, Bash), which oz0 does not have; an oz0 agent is granted oz0 tools by address. Remove tools: and grant oz0 tools in an oz0 agent file",
      "hooks:1:1 error OZ-S030 runs shell commands on Claude Code events (PreToolUse, Stop, ...); oz0 has no hook point that runs a shell command, and its hooks are code a plugin registers (host.addHook). Remove hooks/, or write the hook as oz0 plugin code",
      "skills/style/SKILL.md:4:1 error OZ-S030 allowed-tools: pre-approves tools while the skill is active, and an oz0 skill grants no tools: an agent's tools: and the tenant's policy decide what it may call. Remove allowed-tools and grant those tools to the agent that uses the skill",
    ],
  },
  {
    code: "OZ-S031",
    triggers:
      "refuses an openai-agents agent whose model another provider than OpenAI's Responses or Chat serves, its plugin's or its own",
    passes:
      "accepts openai-agents agents on openai: and openai-chat: models or an alias, and oz0's own loop on any provider",
    lines: [
      "plugin.yaml:8:14 error OZ-S031 agent 'helper' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats, but its model anthropic:claude-sonnet-4-5 is served by provider anthropic of type anthropic. Choose a model of a provider of type openai or openai-chat (openai:<model>, openai-chat:<model>, or an alias of one), or leave runtime: out to run the agent on oz0's own loop, which takes any provider.",
      "plugin.yaml:16:19 error OZ-S031 agent 'local' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats, but its model openai-compatible:qwen2.5:7b is served by provider openai-compatible of type openai-compatible. Choose a model of a provider of type openai or openai-chat (openai:<model>, openai-chat:<model>, or an alias of one), or leave runtime: out to run the agent on oz0's own loop, which takes any provider.",
      "plugin.yaml:22:19 error OZ-S031 agent 'offline' runs on runtime openai-agents, the OpenAI Agents SDK, which speaks only the OpenAI Responses and Chat formats, but its model test is served by the offline test provider. Choose a model of a provider of type openai or openai-chat (openai:<model>, openai-chat:<model>, or an alias of one), or leave runtime: out to run the agent on oz0's own loop, which takes any provider.",
    ],
  },
  {
    code: "OZ-S035",
    triggers:
      "refuses model:, skills and delegation: on a remote agent, which its runtime never reads, and leaves a harness agent's alone",
    passes: "accepts a remote agent without fields its runtime does not read",
    lines: [
      "plugin.yaml:15:5 error OZ-S035 agent 'painter' runs at an outside agent (runtime remote:a2a), whose own model makes its calls, so model: is never read; remove it",
      "plugin.yaml:16:5 error OZ-S035 agent 'painter' runs at an outside agent (runtime remote:a2a), which gets no skills, so partner/brushes would never reach it; write skills: [] or remove them",
      "plugin.yaml:17:5 error OZ-S035 agent 'painter' runs at an outside agent (runtime remote:a2a), which gets no oz.delegate and never starts oz0's agents, so delegation: is never read; remove it",
    ],
  },
  {
    code: "OZ-S036",
    triggers:
      "refuses harness: options an outside A2A agent or an agent at Claude Managed Agents does not take, and tools not in the provider's toolset, each with what to write",
    passes: "accepts every option an outside A2A agent and an agent at Claude Managed Agents take",
    lines: [
      "plugin.yaml:9:7 error OZ-S036 agent 'painter': harness.tools is an option of a provider's remote agent (such as remote:anthropic), which an outside A2A agent does not take: its options are card, skill, key, signature, jwks, version, auth, task_usd, poll, session_header",
      "plugin.yaml:9:7 error OZ-S036 agent 'painter': harness.auth is bearer or header:<Header-Name>, not 'basic'",
      "plugin.yaml:9:7 error OZ-S036 agent 'painter': harness.poll is the seconds between two reads of a running task: a number above 0, at most 3600",
      "plugin.yaml:21:7 error OZ-S036 agent 'coder': harness.card is not an option of an agent at Claude Managed Agents; its options are tools, requires_approval, max_budget_usd, session_hour_usd, workspace, keep_session",
      "plugin.yaml:21:7 error OZ-S036 agent 'coder': harness.tools lists \"shell\", which is not a tool of Claude Managed Agents' toolset; its tools are bash, edit, read, write, glob, grep, web_fetch, web_search",
      "plugin.yaml:21:7 error OZ-S036 agent 'coder': harness.requires_approval lists 'write', which harness.tools does not give the agent; list it in tools too, or remove it",
      "plugin.yaml:21:7 error OZ-S036 agent 'coder': harness.max_budget_usd is an amount in US dollars: a number above 0",
      "plugin.yaml:21:7 error OZ-S036 agent 'coder': harness.keep_session is true (keep the session after the job) or false (archive it, the default)",
    ],
  },
  {
    code: "OZ-S045",
    triggers:
      "refuses a remote:anthropic agent's model: that names none, an alias, or sets options: the agent at the provider runs on the model it names",
    passes: "accepts a remote:anthropic agent on anthropic:<model>",
    lines: [
      `plugin.yaml:7:14 error OZ-S045 agent 'unnamed' runs at a provider (runtime remote:anthropic) and names no model:, and the agent at Claude Managed Agents runs on the model it names; write model: { use: "anthropic:claude-sonnet-4-6" }`,
      `plugin.yaml:14:5 error OZ-S045 agent 'aliased' runs at a provider (runtime remote:anthropic) and names model 'fast', and the agent at Claude Managed Agents runs on an Anthropic model named anthropic:<model>, not an alias or another provider's; write model: { use: "anthropic:claude-sonnet-4-6" }`,
      "plugin.yaml:21:5 error OZ-S045 agent 'tuned' runs at a provider (runtime remote:anthropic) and sets model options or a script, which Claude Managed Agents does not take (the provider makes the model's calls); write the model alone",
    ],
  },
  {
    code: "OZ-S037",
    triggers: "warns about tools on a remote agent, which never gets them",
    passes: "accepts a remote agent without tools",
    lines: [
      "plugin.yaml:8:13 warning OZ-S037 agent 'painter' runs at an outside agent (runtime remote:a2a), which never gets 'oz.ask_user'; remove it",
    ],
  },
  {
    code: "OZ-S033",
    triggers: "refuses harness: options an ACP harness does not read, and any on a JSON-lines harness",
    passes: "accepts an ACP harness agent's tools, requires_approval and needs",
    lines: [
      "plugin.yaml:8:23 error OZ-S033 agent 'coder': needs for the ACP harness 'claude-code' lists client capabilities: fs, terminal",
      "plugin.yaml:8:42 error OZ-S033 agent 'coder': 'colour' is not an option for the ACP harness 'claude-code' (tools, requires_approval, mode, config, needs); remove it",
      "plugin.yaml:15:22 error OZ-S033 agent 'painter': the JSON-lines harness 'codex' takes no harness: options; remove mode",
    ],
  },
  {
    code: "OZ-S034",
    triggers:
      "refuses a routine that fires an agent whose harness.mode or harness.config voids its harness's acp.asks",
    passes: "accepts a routine that fires an agent in its harness's own mode",
    lines: [
      "plugin.yaml:22:10 error OZ-S034 routine nightly fires agent 'tinkerer', and its harness.mode 'auto' is not harness 'mock''s own mode, which voids its acp.asks, so not every call of its harness would reach a rule or a person; leave harness.mode and harness.config out, or start the agent by hand",
      "plugin.yaml:25:10 error OZ-S034 routine sized fires agent 'sizer', and its harness.config voids harness 'mock''s acp.asks, so not every call of its harness would reach a rule or a person; leave harness.mode and harness.config out, or start the agent by hand",
    ],
  },
  {
    code: "OZ-S038",
    triggers: "refuses an agent that needs more node labels, with its plugin's, than a node can have",
    passes: "accepts an agent whose labels with its plugin's fit on a node",
    lines: [
      "plugin.yaml:10:5 error OZ-S038 the agent needs 9 node labels with its plugin's (a, b, c, d, e, f, g, h, i); a node has at most 8, so none could run it",
    ],
  },
  {
    code: "OZ-S039",
    triggers: "warns of an agent label its plugin's labels already require",
    passes: "finds nothing in an agent label of its own",
    lines: [
      "plugin.yaml:10:14 warning OZ-S039 label 'gpu' is already required by the plugin's labels:, for every agent; remove it here",
    ],
  },
  {
    code: "OZ-S040",
    triggers: "refuses a routine fired by a channel of its own plugin that the code does not register",
    passes: "accepts a routine fired by a channel the code registers",
    lines: [
      "plugin.yaml:14:12 error OZ-S040 routine on-message is fired by the channel inbox/slak, which this plugin does not register (its channels: slack); name one it registers",
    ],
  },
  {
    code: "OZ-S042",
    triggers:
      "refuses a channel that supports notifications with no notificationsEnabled(config), and a switch on one that does not support them",
    passes: "accepts a channel that supports notifications the config switches on, and one that takes none",
    lines: [
      "plugin.yaml:4:7 error OZ-S042 the channel pager says it supports notifications but gives no notificationsEnabled(config), so the operator could never switch them on; give notificationsEnabled, or leave supportsNotifications out",
      "plugin.yaml:4:7 error OZ-S042 the channel beeper gives notificationsEnabled(config) but does not say supportsNotifications: true, so oz0 would send it none; set supportsNotifications: true, or leave notificationsEnabled out",
    ],
  },
  {
    code: "OZ-S043",
    triggers: "refuses an admin spec whose schema is not a JSON Schema oz0 can check",
    passes: "accepts an admin spec with a JSON Schema",
    lines: [
      "plugin.yaml:4:7 error OZ-S043 admin spec 'config': its schema is not a JSON Schema oz0 can check (schema is invalid: data/properties/limit/type must be equal to one of the allowed values, data/properties/limit/type must be array, data/properties/limit/type must match a schema in anyOf), so no config could be set; fix the schema",
    ],
  },
  {
    code: "OZ-S044",
    triggers: "refuses an admin spec whose default config does not pass its own schema",
    passes: "accepts defaults that pass the schema",
    lines: [
      "plugin.yaml:4:7 error OZ-S044 admin spec 'config': the default config does not pass its schema (limit: must be integer); make defaultConfig pass it",
    ],
  },
];

describe("each lint rule, on the fixture that triggers it and the one that passes", () => {
  for (const rule of CASES) {
    describe(rule.code, () => {
      it(rule.triggers, async () => {
        const lines = await lintLines(fixture(rule.code.toLowerCase(), "triggers"));
        expect(lines).toEqual(rule.lines);
        expect(lines.some((line) => line.includes(` ${rule.code} `))).toBe(true);
      });

      it(rule.passes, async () => {
        expect(await lintLines(fixture(rule.code.toLowerCase(), "passes"))).toEqual(rule.passLines ?? []);
      });
    });
  }

  it("covers every code but the tenant-aware OZ-S021, OZ-S022 and OZ-S027 (tested with a tenant context)", () => {
    const covered = new Set<string>(CASES.map((rule) => rule.code));
    expect(Object.keys(LINT_CODES).filter((code) => !covered.has(code))).toEqual([
      "OZ-S021",
      "OZ-S022",
      "OZ-S027",
    ]);
  });

  it("finds nothing to report in the sample support-triage plugin", async () => {
    expect(await lintLines(fixture("../../../../../examples/support-triage"))).toEqual([]);
  });
});
