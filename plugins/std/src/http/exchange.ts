// One hop of an http call: check the host's addresses, connect through the guarded lookup on
// a connection of its own (no pooled socket, so none opened unchecked is ever reused), check
// the address actually connected to before the request leaves, and hand back the response.
import http, { type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { addressProblem } from "./addresses.js";
import { guardedLookup, type Resolver, refusedAddress } from "./resolve.js";
import { ssrfRefusal, type Target } from "./target.js";

export interface Hop {
  readonly target: Target;
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: string | undefined;
  readonly resolver: Resolver;
  /** Aborts on the call's deadline or cancellation; it ends the whole exchange. */
  readonly signal: AbortSignal;
}

/**
 * Resolves a target's name and refuses it when any address is not public, before anything is
 * sent to the host. An allowed host or an IP literal (checked with the URL) needs no lookup.
 */
export async function checkAddresses(target: Target, resolver: Resolver, signal: AbortSignal): Promise<void> {
  if (target.allowed || isIP(target.host) !== 0) return;
  const addresses = await abortable(resolver(target.host), signal);
  if (addresses.length === 0)
    throw Object.assign(new Error(`${target.host} has no address`), { code: "ENOTFOUND" });
  const refused = refusedAddress(addresses);
  if (refused !== undefined) throw resolvedRefusal(target, refused.address, refused.problem);
}

/** Sends one request and resolves with its response, whose body is left to read. */
export function send(hop: Hop): Promise<IncomingMessage> {
  const { target } = hop;
  const checked = !target.allowed;
  const lookup = guardedLookup(hop.resolver, checked, (address, problem) =>
    resolvedRefusal(target, address, problem),
  );
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(target.url, {
      method: hop.method,
      headers: hop.headers,
      agent: false,
      lookup,
      signal: hop.signal,
    });
    request.once("response", resolve);
    request.once("error", reject);
    if (checked) {
      // First among the socket's connect listeners, so a refusal lands before the request is written.
      request.once("socket", (socket: Socket) =>
        socket.prependOnceListener("connect", () => {
          const address = socket.remoteAddress ?? "";
          const problem = addressProblem(address);
          if (problem !== undefined) request.destroy(resolvedRefusal(target, address, problem));
        }),
      );
    }
    request.end(hop.body);
  });
}

function resolvedRefusal(target: Target, address: string, problem: string): Error {
  const what =
    isIP(target.host) === 0
      ? `${target.host} resolves to ${address}, ${problem}`
      : `${address} is ${problem}`;
  return ssrfRefusal(target.url.href, what, { host: target.host, address }, target.origin);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
