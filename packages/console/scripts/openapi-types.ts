// Writes src/openapi.d.ts, the API's types for the console, from the OpenAPI document the server
// makes of its route schemas (openapi-typescript). The console is typed against the public API
// only: a route it calls that the document lacks does not typecheck.
import { writeFile } from "node:fs/promises";
import type { Runtime } from "@oz0/runtime";
import { createApp, OPENAPI_PATH } from "@oz0/server";
import openapiTS, { astToString } from "openapi-typescript";

// The document is made of the routes' schemas alone: no route runs, so no runtime is opened.
const app = createApp({
  runtime: { services: {}, identity: {}, routines: {} } as unknown as Runtime,
  console: false,
});
const document = await (await app.request(OPENAPI_PATH)).json();
const types = astToString(await openapiTS(document));
const header = "// Generated from the server's OpenAPI document by scripts/openapi-types.ts: do not edit.\n";
await writeFile(new URL("../src/openapi.d.ts", import.meta.url), header + types);
