// The fixed table of oz0 error codes. docs/errors.md documents each row; a test fails when
// the two disagree, so adding a code means adding its documentation in the same change.

/** Whose mistake an error is: the caller's input (`user`) or the platform's own fault (`system`). */
export type ErrorSide = "user" | "system";

export interface ErrorCodeInfo {
  readonly side: ErrorSide;
  /** One line on when the code is raised. */
  readonly summary: string;
  /** What `Oz0Error.data` holds for this code. */
  readonly data: string;
}

export const ERROR_CODES = {
  INVALID_ADDRESS: {
    side: "user",
    summary: "An address or address pattern is malformed.",
    data: "{ input: string, form?: string }: the text given and the form that was expected.",
  },
  INVALID_NAME: {
    side: "user",
    summary: "A plugin, agent, flow, tool, function, skill, tag or failure-kind name breaks its rule.",
    data: "{ kind: string, name: string }: what kind of name, and the name given.",
  },
  MODEL_NAME_TOO_LONG: {
    side: "user",
    summary: "A model-visible function name is longer than a provider accepts.",
    data: "{ name: string, length: number, limit: number }",
  },
  INVALID_MANIFEST: {
    side: "user",
    summary:
      "A plugin.yaml, agent file, skill or kind: Tool manifest does not parse or does not match its schema.",
    data: "{ issues: { file, line, column, path, message }[] }: every problem found, each with its place.",
  },
  UNSAFE_YAML: {
    side: "user",
    summary:
      "A YAML document uses a construct refused for untrusted input (too many aliases, custom tags, too deep or too large).",
    data: "{ file: string, line?: number, column?: number, limit?: number }",
  },
  INVALID_PLUGIN: {
    side: "user",
    summary: "A plugin object or contract class does not have the shape the host expects.",
    data: "{ plugin?: string, detail: string }",
  },
  DUPLICATE_REGISTRATION: {
    side: "user",
    summary: "A plugin registered two capabilities of one kind under the same name.",
    data: "{ plugin: string, kind: string, name: string }",
  },
  UNKNOWN_HOOK: {
    side: "user",
    summary: "A handler names a hook point that is not in the catalogue.",
    data: "{ hook: string, suggestion?: string }",
  },
  INVALID_INPUT: {
    side: "user",
    summary: "Arguments or job input do not match the schema they are checked against.",
    data: "{ issues: { path: string, message: string }[] }",
  },
  POLICY_VIOLATION: {
    side: "user",
    summary: "A governance handler refused an action.",
    data: "{ contractId: string, reason: string, details: object }",
  },
  INTERNAL: {
    side: "system",
    summary: "Something failed that is not the caller's mistake; the message says what.",
    data: "{ cause?: string }",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;
