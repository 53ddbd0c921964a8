// HMAC-SHA256 signatures and the timestamp window both channels check: a request more than
// five minutes from the receiver's clock is refused, so a captured request cannot be replayed
// later (within the window, the host stores each event once).
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a signed request's timestamp may be from the clock, either way. */
export const WINDOW_SECONDS = 300;

export function hmacHex(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** Whether `given` (hex) is `expected` (hex), in constant time. */
export function sameHex(given: string, expected: string): boolean {
  return (
    /^[0-9a-f]{64}$/.test(given) && timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(expected, "hex"))
  );
}

/** Why `timestamp` (seconds) is refused at `nowMs`, or undefined when it is within the window. */
export function staleTimestamp(timestamp: string | undefined, nowMs: number): string | undefined {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    return "the timestamp is missing or not whole seconds since the epoch";
  const skew = Math.abs(nowMs - Number(timestamp) * 1000);
  return skew > WINDOW_SECONDS * 1000
    ? `the timestamp is ${Math.round(skew / 1000)} s from the clock, more than the ${WINDOW_SECONDS} s a signature is good for`
    : undefined;
}
