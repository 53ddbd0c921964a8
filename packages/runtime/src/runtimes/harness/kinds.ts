// ACP's tool kinds (its `ToolKind`): what an ACP harness agent's `tools` and
// `requires_approval` name, and the functions `<plugin>/<harness>.<kind>` its permission
// requests are decided as, which tool policy rules may name.
export const ACP_TOOL_KINDS: readonly string[] = [
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
];
