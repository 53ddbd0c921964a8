// What each std tool says about itself beyond its functions: the row of the spec's tool summary
// table and worked examples. docs/std-tools.md is rendered from it, and its examples are run.

/** One call and what it returns, shown in the docs. */
export interface ToolExample {
  /** The function's name within the tool. */
  readonly function: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: unknown;
  /**
   * Whether the docs test runs the example and compares the result. False only for examples
   * that need the outside world (a public web server); the clock is fixed for the test.
   */
  readonly checked: boolean;
}

export interface ToolInfo {
  /** The tool ID. */
  readonly id: string;
  /** The class name the spec's table gives the tool (`DateTimeTool`). */
  readonly specName: string;
  readonly description: string;
  readonly keyOperations: string;
  readonly externalDeps: string;
  readonly governance: string;
  /** Notes for the docs section: limits, syntax, security. Markdown lines. */
  readonly notes: readonly string[];
  readonly examples: readonly ToolExample[];
}
