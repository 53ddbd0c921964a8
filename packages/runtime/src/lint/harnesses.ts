// The harnesses oz0 knows as official: agent processes it drives for `runtime: harness:<name>`,
// each speaking the Agent Client Protocol (ACP) or JSON lines. Lint trusts these wherever
// they come from; a harness another plugin provides that is not here is one lint cannot
// vouch for. docs/lint.md lists them (OZ-S010).

/** How oz0 talks to a harness: ACP (tools served as one MCP server) or JSON lines (only oz.ask_user). */
export type HarnessProtocol = "acp" | "jsonl";

export interface OfficialHarness {
  readonly protocol: HarnessProtocol;
  /** What the harness runs. */
  readonly runs: string;
}

export const OFFICIAL_HARNESSES: Readonly<Record<string, OfficialHarness>> = {
  "claude-code": { protocol: "acp", runs: "Claude Code, through its ACP adapter" },
  "gemini-cli": { protocol: "acp", runs: "Gemini CLI in its ACP mode" },
  codex: { protocol: "jsonl", runs: "OpenAI Codex CLI (codex exec --json)" },
  "claude-agent-sdk": { protocol: "jsonl", runs: "the Claude Agent SDK's stream-json messages" },
};

/** The one built-in a JSON-lines harness agent can use. */
export const JSONL_HARNESS_TOOLS: readonly string[] = ["oz.ask_user"];
