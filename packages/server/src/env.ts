// What a request carries through the middleware into its route: the authenticated caller.
import type { Caller } from "@oz0/runtime";

export interface ServerEnv {
  Variables: { caller: Caller };
}
