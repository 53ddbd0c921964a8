// The web console's pages: the assets `npm run build` made in @oz0/console, served as they are
// (no build at run time). Every page under /t/<tenant>/… is the one index.html, whose script
// draws the page its address names from the public API; the hashed files under /assets/ are
// kept by browsers for good.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Oz0Error } from "@oz0/sdk";
import type { Context } from "hono";
import type { ServerEnv } from "./env.js";
import { errorResponse } from "./errors.js";

/** The console's own addresses: its pages and its built files. */
export function isConsolePath(path: string): boolean {
  return path === "/" || path === "/t" || path.startsWith("/t/") || path.startsWith("/assets/");
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

/** A built file's name: letters, digits, `-`, `_` and `.`, so no path leaves the folder. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function registerConsole(app: OpenAPIHono<ServerEnv>, dir: string | undefined): void {
  const index = dir === undefined ? undefined : join(dir, "index.html");
  const page = async (c: Context) => {
    if (index === undefined || !existsSync(index)) return errorResponse(c, notBuilt());
    c.header("cache-control", "no-cache");
    return c.html(await readFile(index, "utf8"));
  };
  app.get("/", page);
  app.get("/t", page);
  app.get("/t/*", page);
  app.get("/assets/:name", async (c) => {
    const name = c.req.param("name");
    const file = dir === undefined || !ASSET_NAME.test(name) ? undefined : join(dir, "assets", name);
    if (file === undefined || !existsSync(file)) {
      return errorResponse(
        c,
        new Oz0Error("NOT_FOUND", `the console has no file ${name}.`, { data: { kind: "asset", name } }),
      );
    }
    c.header("content-type", TYPES[extname(name)] ?? "application/octet-stream");
    c.header("cache-control", "public, max-age=31536000, immutable");
    return c.body(await readFile(file));
  });
}

function notBuilt(): Oz0Error {
  return new Oz0Error(
    "NOT_FOUND",
    "the web console is not built: run npm run build (it builds packages/console), then start oz0 serve again.",
    { data: { kind: "console", name: "index.html" } },
  );
}
