// A routine's signed webhook (`event: webhook`): the caller signs `<timestamp>.<body>` with the
// routine's secret (HMAC-SHA256, hex), and sends the timestamp (seconds since the epoch) beside
// it. A signature that does not match, a timestamp outside the window, and a signature used
// before are refused; the signature's fire row is the replay record, unique per routine.
// The server's `POST /v1/t/{tenant}/routines/{name}/fire` calls `fireWebhook`.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Oz0Error } from "@oz0/sdk";

/** How far a webhook's timestamp may be from the database's clock, either way. */
export const WEBHOOK_WINDOW_MS = 300_000;

/** The secret setting's name of routine `address`. */
export function webhookSecretName(address: string): string {
  return `routine.${address}`;
}

/** A fresh secret: 32 random bytes, hex, shown once when it is made. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

/** `HMAC-SHA256(secret, timestamp + "." + body)`, hex: what a sender puts in its signature. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export interface WebhookRequest {
  readonly tenant: string;
  /** The routine's address: `<plugin>/<name>`, or a tenant-level routine's name. */
  readonly routine: string;
  /** Seconds since the epoch, as sent (`X-Oz0-Timestamp`). */
  readonly timestamp: string;
  /** The hex signature, bare or as `sha256=<hex>` (`X-Oz0-Signature`). */
  readonly signature: string;
  /** The request body exactly as received: the signature covers these bytes. */
  readonly body: string;
}

/**
 * Checks a webhook's signature and timestamp; the signature's hex, the replay key, when it
 * holds. Throws UNAUTHENTICATED saying which check failed.
 */
export function verifyWebhook(secret: string, request: WebhookRequest, nowMs: number): string {
  const refuse = (reason: string, message: string) =>
    new Oz0Error("UNAUTHENTICATED", `webhook for routine ${request.routine} refused: ${message}`, {
      data: { scheme: "hmac-sha256", reason },
    });
  if (!/^\d{1,12}$/.test(request.timestamp)) {
    throw refuse(
      "timestamp",
      `the timestamp '${request.timestamp.slice(0, 40)}' is not whole seconds since the epoch`,
    );
  }
  const skew = Math.abs(nowMs - Number(request.timestamp) * 1000);
  if (skew > WEBHOOK_WINDOW_MS) {
    throw refuse(
      "stale",
      `the timestamp is ${Math.round(skew / 1000)} s from the server's clock, more than the ${WEBHOOK_WINDOW_MS / 1000} s a signature is good for; sign the request again with the time now`,
    );
  }
  const given = request.signature
    .trim()
    .replace(/^sha256=/, "")
    .toLowerCase();
  const expected = signWebhook(secret, request.timestamp, request.body);
  const ok =
    /^[0-9a-f]{64}$/.test(given) && timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(expected, "hex"));
  if (!ok) {
    throw refuse(
      "signature",
      "the signature does not match; sign <timestamp>.<body> with HMAC-SHA256 and the routine's secret (oz0 routine secret)",
    );
  }
  return given;
}

/** A webhook's body as the job's input: JSON when it is JSON, else the text. */
export function webhookInput(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
