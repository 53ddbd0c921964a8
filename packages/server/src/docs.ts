// The API reference page at /v1/docs: Swagger UI (the swagger-ui-dist package) reading
// /v1/openapi.json, every file it loads served by this server from the installed package, so
// the page works offline and its Content-Security-Policy (security.ts) allows nothing but this
// origin. The page has no inline script or style: Swagger UI starts from a script of its own.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Hono } from "hono";
import type { ServerEnv } from "./env.js";

/** Where the reference page is; it and its assets alone get the page's security policy. */
export const DOCS_PATH = "/v1/docs";

/** The files the page loads, by the name it asks for, each with its content type. */
const ASSETS = {
  "swagger-ui.css": { from: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { from: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "favicon-32x32.png": { from: "favicon-32x32.png", type: "image/png" },
} as const;

/** Starts Swagger UI on the document; no validator badge, which would ask another site. */
function startScript(openapiPath: string): string {
  return `window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(openapiPath)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
  });
});
`;
}

function page(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>oz0 API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/start.js"></script>
  </body>
</html>
`;
}

/** The folder of the installed swagger-ui-dist. */
function distFolder(): string {
  return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
}

/** Registers the page, its start script and Swagger UI's files, each read once when first asked for. */
export function registerDocs(app: Hono<ServerEnv>, openapiPath: string): void {
  const read = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
  const asset = (file: string) => {
    let loaded = read.get(file);
    if (loaded === undefined) {
      loaded = readFile(join(distFolder(), file)).then((bytes) => new Uint8Array(bytes));
      read.set(file, loaded);
    }
    return loaded;
  };
  app.get(DOCS_PATH, (c) => c.html(page()));
  app.get(`${DOCS_PATH}/start.js`, (c) =>
    c.body(startScript(openapiPath), 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  for (const [name, { from, type }] of Object.entries(ASSETS)) {
    app.get(`${DOCS_PATH}/${name}`, async (c) =>
      c.body(await asset(from), 200, { "content-type": type, "cache-control": "public, max-age=3600" }),
    );
  }
}
