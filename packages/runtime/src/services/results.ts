// The public shapes of a job's outcome every surface prints: `oz0 run --json`, the API's
// StartJob answer and the console show the same fields.
import type { Card } from "../cards/index.js";
import type { JobView } from "../jobs/index.js";

/** A run's answer: `oz0 run --json` prints it. */
export interface RunResult {
  readonly id: string;
  readonly agent: string;
  readonly status: JobView["status"];
  readonly output: unknown;
  readonly failure: JobView["failure"];
}

/** The job as a run's answer shows it. */
export function runResult(view: JobView): RunResult {
  return { id: view.id, agent: view.agent, status: view.status, output: view.output, failure: view.failure };
}

/** A job as a run left it, with the card its answer is drawn as (a structured answer only). */
export interface RunOutcome {
  readonly view: JobView;
  readonly card: Card | undefined;
}

/** One turn of a chat: the job as it stands, the answer's card, and the answer itself. */
export interface ChatTurn extends RunOutcome {
  /** The model's last answer (text, or the structured output); null when it gave none. */
  readonly answer: unknown;
}
