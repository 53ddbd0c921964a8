// What a request carries through the middleware into its route: the authenticated caller, and
// for a console session its CSRF token.
import type { Caller } from "@oz0/runtime";

export interface ServerEnv {
  Variables: { caller: Caller; csrf?: string | undefined };
}
