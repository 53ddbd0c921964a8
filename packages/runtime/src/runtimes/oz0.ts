// oz0's own loop as an agent runtime: the core's own step (the next pending call, else a model
// call) until the job stops. Its name is what traces show; the specification calls the default
// `pydantic-ai`, the name an agent writes, so that is what selects it.
import type { AgentRuntime } from "./types.js";

export const OZ0_RUNTIME: AgentRuntime = {
  name: "oz0",
  selects: ["pydantic-ai"],
  async run(session) {
    while (!(await session.step()));
  },
};
