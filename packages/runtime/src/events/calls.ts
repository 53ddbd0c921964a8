// What a job's history records of a function call that did not succeed, and of who changed a
// call's arguments on the dispatch path.
import type { ArgumentIssue } from "../schemas/index.js";

export interface CallError {
  readonly code: string;
  readonly message: string;
  /** For INVALID_INPUT: each problem with the arguments. */
  readonly issues?: readonly ArgumentIssue[];
}

/** Who changed a call's arguments on the path: a hook handler by its plugin and registration. */
export interface ArgumentChanger {
  readonly plugin: string;
  readonly handler: string;
}
