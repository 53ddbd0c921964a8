// What a person may do from a channel besides talking to the agent: decide an approval, or
// answer a job's question. A surface with buttons says so in the envelope's `metadata.action`;
// any surface may write it as text: `approve <id> [reason]`, `deny <id> [reason]`,
// `answer <job> <text>` (docs/channels.md#answering-approvals-and-questions).

export type ChannelCommand =
  | { readonly kind: "approve" | "deny"; readonly approval: string; readonly reason?: string }
  | { readonly kind: "answer"; readonly job: string; readonly text: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

/** The command an envelope carries, if it carries one. */
export function channelCommand(
  content: string,
  metadata: Readonly<Record<string, unknown>>,
): ChannelCommand | undefined {
  const action = metadata.action;
  if (typeof action === "object" && action !== null) return fromAction(action as Record<string, unknown>);
  // A mention of the bot (`<@U123> approve …`) comes first in a Slack message.
  const text = content.replace(/^(?:<@[A-Z0-9]+>\s*)+/, "").trim();
  const decision = /^(approve|deny)\s+(\S+)(?:\s+([\s\S]+))?$/i.exec(text);
  if (decision !== null && ID.test(decision[2]!)) {
    const reason = decision[3]?.trim();
    return {
      kind: decision[1]!.toLowerCase() as "approve" | "deny",
      approval: decision[2]!,
      ...(reason === undefined || reason === "" ? {} : { reason }),
    };
  }
  const answer = /^answer\s+(\S+)\s+([\s\S]+)$/i.exec(text);
  if (answer !== null && ID.test(answer[1]!))
    return { kind: "answer", job: answer[1]!, text: answer[2]!.trim() };
  return undefined;
}

function fromAction(action: Record<string, unknown>): ChannelCommand | undefined {
  const { kind } = action;
  if (
    (kind === "approve" || kind === "deny") &&
    typeof action.approval === "string" &&
    ID.test(action.approval)
  ) {
    return {
      kind,
      approval: action.approval,
      ...(typeof action.reason === "string" && action.reason !== "" ? { reason: action.reason } : {}),
    };
  }
  if (
    kind === "answer" &&
    typeof action.job === "string" &&
    ID.test(action.job) &&
    typeof action.text === "string"
  ) {
    return { kind, job: action.job, text: action.text };
  }
  return undefined;
}
