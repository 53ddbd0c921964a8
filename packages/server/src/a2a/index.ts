// oz0's agents served over the A2A protocol (docs/server.md#a2a).
export { A2A_PROTOCOL, registerA2aRoutes } from "./routes.js";
