// What every response and request passes before a route sees it: security headers, a closed
// CORS policy with the Origin of state-changing requests checked, and the body size limit.
import { Oz0Error } from "@oz0/sdk";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { isConsolePath } from "./console.js";
import { DOCS_PATH } from "./docs.js";
import { errorResponse } from "./errors.js";

/** The largest request body the server reads when its options leave it out: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The largest plugin bundle upload read, in bytes: 64 MiB, a bundle's own limit. */
export const DEFAULT_UPLOAD_LIMIT = 64 * 1024 * 1024;

/**
 * The usual security headers on every response. API answers are JSON and load nothing, so their
 * policy allows nothing; the reference page and its files get one that lets its viewer run from
 * this origin alone: scripts, styles and fonts from here, no inline script or style, requests
 * to here only (the document, "try it out"). Images may also be `data:` URIs, which is how
 * Swagger UI's own stylesheet draws its icons: nothing leaves for another origin.
 */
export function securityHeaders(): MiddlewareHandler {
  const api = secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    crossOriginResourcePolicy: "same-origin",
  });
  const docs = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      fontSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    crossOriginResourcePolicy: "same-origin",
  });
  // The console's pages load only their own built script and styles, and talk only to this server.
  const console = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  });
  const isDocs = (path: string) => path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
  return (c, next) =>
    isDocs(c.req.path) ? docs(c, next) : isConsolePath(c.req.path) ? console(c, next) : api(c, next);
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * CORS stays closed: no response carries Access-Control-Allow-Origin, and a request that could
 * change state (or a preflight for one) from another origin is refused before it is read. A
 * browser page elsewhere cannot use a person's credentials here; `allowedOrigins` names
 * origins that may.
 */
export function originCheck(allowedOrigins: readonly string[] = []): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    const own = new URL(c.req.url).origin;
    const foreign =
      (origin !== undefined && origin !== own && !allowed.has(origin)) ||
      (origin === undefined && site === "cross-site");
    if (!foreign) return next();
    return errorResponse(
      c,
      new Oz0Error(
        "FORBIDDEN",
        `a ${c.req.method} request from origin ${origin ?? "(another site)"} is refused: this server accepts state-changing requests only from its own origin (${own}).`,
        { data: { action: `${c.req.method} ${c.req.path}`, origin: origin ?? null } },
      ),
    );
  };
}

/** Refuses a body larger than `maxBytes` with REQUEST_TOO_LARGE, in the one error shape. */
export function sizeLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      errorResponse(
        c,
        new Oz0Error(
          "REQUEST_TOO_LARGE",
          `the request's body is larger than this server accepts (${maxBytes} bytes); send less.`,
          { data: { limit: maxBytes, unit: "bytes" } },
        ),
      ),
  });
}
