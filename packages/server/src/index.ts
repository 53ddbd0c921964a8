// @oz0/server: the oz0 HTTP API over a runtime, described by OpenAPI, for `oz0 serve` and
// anyone who embeds it.
export { type AppOptions, createApp, OPENAPI_PATH } from "./app.js";
export { DEFAULT_LISTEN, type RunningServer, type ServerOptions, startServer } from "./listen.js";
export { DEFAULT_BODY_LIMIT, DEFAULT_UPLOAD_LIMIT } from "./security.js";
