// The `http` tool: GET, POST, PUT and DELETE with headers, a body, query parameters and a
// deadline for the whole exchange, protected against SSRF: every hop (the URL, each
// redirect, each resolved and each connected address) is checked, and a refusal says why
// before anything reaches the host.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { validateHeaderName, validateHeaderValue } from "node:http";
import { defineTool, type FunctionCall, isOz0Error, type ToolSpec } from "@oz0/sdk";
import { z } from "zod";
import { type AllowedHost, readStdConfig } from "../config.js";
import { badArgument, limitExceeded, networkError } from "../errors.js";
import type { ToolInfo } from "../tool-info.js";
import { ACCEPT_ENCODING, contentDecoders, MAX_RESPONSE_BYTES, presentBody, readBody } from "./body.js";
import { checkAddresses, send } from "./exchange.js";
import { type Resolver, systemResolver } from "./resolve.js";
import { checkTarget, type Target } from "./target.js";

export const MAX_TIMEOUT_SECONDS = 120;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_REDIRECTS = 5;
export const MAX_REQUEST_BODY_CHARS = 1_048_576;
const MAX_URL_CHARS = 8_192;
const USER_AGENT = "oz0-http/0.1";

/** Headers the tool sets itself: a caller's value would break the exchange or smuggle another. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
]);
/** Headers that carry credentials, dropped when a redirect leaves the origin they were sent to. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface HttpOptions {
  /** Resolves host names; tests pass one that answers without DNS. */
  readonly resolve?: Resolver;
}

export const httpInfo: ToolInfo = {
  id: "http",
  specName: "HttpTool",
  description: "Make HTTP requests (GET, POST, PUT, DELETE) to public web services, with SSRF protection.",
  keyOperations: "GET, POST, PUT, DELETE",
  externalDeps: "None",
  governance: "SSRF built-in",
  notes: [
    `\`timeout\` is in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}) and is a deadline for the whole exchange: name resolution, connecting, redirects and reading the body. Up to ${MAX_REDIRECTS} redirects are followed (303, and 301/302 after a POST, switch to GET); credentials headers are dropped when a redirect leaves the origin.`,
    `The response body is at most ${MAX_RESPONSE_BYTES} bytes, counted after decoding gzip, deflate or brotli, read as a stream that stops at the limit. A JSON response is parsed; text is returned as text; anything else as base64 with \`body_encoding: "base64"\`. Any status code is a result (\`status_code\`); only failures to get a response are errors.`,
    "SSRF protection: only `http` and `https` URLs, without credentials in them. Every address must be public unicast: refused are localhost, 127.0.0.0/8, ::1, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16 (with the cloud metadata address 169.254.169.254), 0.0.0.0/8, 100.64.0.0/10, the other IANA special-purpose ranges, multicast and reserved space, and every IPv6 address outside 2000::/3 or in its special ranges (fc00::/7, fe80::/10, IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16, …). Other spellings of an address (2130706433, 0x7f.1, 017700000001, [::ffff:127.0.0.1]) are normalised before the check.",
    "A host name is resolved and every address it has is checked before the request; the connection resolves it again and connects only to a checked address, then checks the address it is connected to, and no connection is reused, so a name that answers differently the second time (DNS rebinding) is still refused. Each redirect is checked the same way. A refusal (`POLICY_VIOLATION`, contract `ssrf`) says why, and nothing was sent to the host.",
    'An operator can allow internal hosts by name or address, with an optional port, in the std plugin\'s config: `http: { allowHosts: ["intranet.example", "10.0.0.5:8080"] }`. An allowed host\'s addresses are not checked; a redirect from it to any other internal host still is.',
  ],
  examples: [
    {
      function: "request",
      args: { url: "https://api.example.com/data", method: "GET" },
      result: {
        status: "ok",
        status_code: 200,
        headers: { "content-type": "application/json" },
        body: { items: [] },
      },
      checked: false,
    },
    {
      function: "request",
      args: {
        url: "https://api.example.com/items",
        method: "POST",
        body: '{"name": "Widget"}',
        headers: { Authorization: "Bearer token123" },
      },
      result: {
        status: "ok",
        status_code: 201,
        headers: { "content-type": "application/json" },
        body: { id: 1, name: "Widget" },
      },
      checked: false,
    },
  ],
};

const requestInput = z.object({
  url: z.string().max(MAX_URL_CHARS).describe("The absolute http or https URL to call."),
  method: z.enum(["GET", "POST", "PUT", "DELETE"]).default("GET").describe("The HTTP method."),
  headers: z.record(z.string(), z.string()).default({}).describe("Request headers, by name."),
  body: z
    .string()
    .max(MAX_REQUEST_BODY_CHARS)
    .optional()
    .describe("The request body (POST, PUT, DELETE); JSON text is sent as application/json."),
  query_params: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe("Query parameters added to the URL."),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_SECONDS)
    .default(DEFAULT_TIMEOUT_SECONDS)
    .describe(`Seconds the whole exchange may take (at most ${MAX_TIMEOUT_SECONDS}).`),
});

type RequestArgs = z.output<typeof requestInput>;

/** The http tool; allowed internal hosts come from the plugin config. */
export function httpTool(options: HttpOptions = {}): ToolSpec {
  const resolver = options.resolve ?? systemResolver;
  return {
    name: httpInfo.id,
    description: httpInfo.description,
    build: (ctx) => {
      const { allowHosts } = readStdConfig(ctx.config).http;
      const request = defineTool({
        name: "request",
        description:
          "Send an HTTP request (GET, POST, PUT or DELETE) to a public URL and get the status code, headers and body (parsed when JSON). Internal and private addresses are refused.",
        input: requestInput,
        run: (args, call) => callWithDeadline(args, call, allowHosts, resolver),
      });
      return { functions: [request] };
    },
  };
}

async function callWithDeadline(
  args: RequestArgs,
  call: FunctionCall,
  allowHosts: readonly AllowedHost[],
  resolver: Resolver,
) {
  const deadline = AbortSignal.timeout(args.timeout * 1000);
  const signal = AbortSignal.any([call.signal, deadline]);
  const first = checkTarget(withQuery(args.url, args.query_params), allowHosts, { kind: "argument" });
  const headers = requestHeaders(args);
  try {
    return await exchange(first, args, headers, { allowHosts, resolver, signal });
  } catch (error) {
    if (call.signal.aborted) throw call.signal.reason;
    if (deadline.aborted) {
      throw limitExceeded(
        `${args.method} ${first.url.href} took longer than its timeout of ${args.timeout} s and was stopped. Raise timeout (at most ${MAX_TIMEOUT_SECONDS}), or ask for less.`,
        { limit: "timeout", max: args.timeout, unit: "s" },
      );
    }
    if (isOz0Error(error)) throw error;
    throw networkError(`${args.method} ${first.url.href} failed: ${describe(error)}.`, first.url.href, error);
  }
}

interface Session {
  readonly allowHosts: readonly AllowedHost[];
  readonly resolver: Resolver;
  readonly signal: AbortSignal;
}

/** Follows the request through its redirects, checking every hop, and reads the final body. */
async function exchange(first: Target, args: RequestArgs, headers: OutgoingHttpHeaders, session: Session) {
  let target = first;
  let method: string = args.method;
  let body = args.body;
  for (let redirects = 0; ; redirects++) {
    await checkAddresses(target, session.resolver, session.signal);
    const response = await send({
      target,
      method,
      headers,
      body,
      resolver: session.resolver,
      signal: session.signal,
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined) {
      const decoders = contentDecoders(response.headers["content-encoding"]);
      if (!Array.isArray(decoders)) {
        response.destroy();
        throw new Error(
          `the response uses the content-encoding '${decoders.unsupported}', which the http tool does not decode`,
        );
      }
      const bytes = await readBody(response, decoders);
      return {
        status: "ok",
        status_code: status,
        headers: flatHeaders(response.headers),
        ...presentBody(bytes, response.headers["content-type"]),
      };
    }
    response.destroy();
    if (redirects >= MAX_REDIRECTS) {
      throw limitExceeded(
        `${first.url.href} redirected more than ${MAX_REDIRECTS} times; the http tool follows at most ${MAX_REDIRECTS}.`,
        {
          limit: "redirects",
          max: MAX_REDIRECTS,
          unit: "redirects",
        },
      );
    }
    const next = checkTarget(location, session.allowHosts, { kind: "redirect", from: target.url.href });
    if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      delete headers["content-type"];
      delete headers["content-length"];
    }
    if (next.url.origin !== target.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    target = next;
  }
}

function withQuery(url: string, params: RequestArgs["query_params"]): string {
  if (params === undefined || Object.keys(params).length === 0) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // checkTarget explains what is wrong with it.
  }
  for (const [name, value] of Object.entries(params)) parsed.searchParams.append(name, String(value));
  return parsed.href;
}

/** The caller's headers, checked, with lower-case names and the tool's own defaults. */
function requestHeaders(args: RequestArgs): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(args.headers)) {
    const key = name.toLowerCase();
    if (RESERVED_HEADERS.has(key)) {
      throw badArgument(`headers.${name}`, `the http tool sets ${name} itself; leave it out.`);
    }
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch (error) {
      throw badArgument(`headers.${name}`, `not a valid header: ${describe(error)}.`);
    }
    headers[key] = value;
  }
  if (args.body !== undefined) {
    if (args.method === "GET") {
      throw badArgument(
        "body",
        "a GET request has no body; use POST or PUT, or put the values in query_params.",
      );
    }
    headers["content-type"] ??= looksLikeJson(args.body) ? "application/json" : "text/plain; charset=utf-8";
    headers["content-length"] = String(Buffer.byteLength(args.body));
  }
  headers["accept-encoding"] ??= ACCEPT_ENCODING;
  headers["user-agent"] ??= USER_AGENT;
  return headers;
}

function looksLikeJson(body: string): boolean {
  try {
    JSON.parse(body);
    return /^\s*[[{]/.test(body);
  } catch {
    return false;
  }
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
}
