// Time zones for the datetime tool: `utc`, a fixed UTC offset such as `+05:30`, or an IANA
// name such as `Europe/Paris`, read once and asked for its offset at a given instant.
import { badArgument } from "../errors.js";

/** A zone as the caller named it. */
export type Zone =
  | { readonly kind: "fixed"; readonly offsetMinutes: number; readonly name: string }
  | { readonly kind: "iana"; readonly id: string; readonly format: Intl.DateTimeFormat };

/** The zone's offset from UTC at one instant and the name `%Z` prints. */
export interface ZoneAt {
  readonly offsetMinutes: number;
  readonly name: string;
}

const UTC_NAMES = new Set(["utc", "z", "gmt", "zulu"]);
const OFFSET = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const MAX_OFFSET_MINUTES = 24 * 60 - 1;

/**
 * Reads `timezone`: `utc` (any case), an offset `+05:30`, `+0530`, `-08` or `UTC+05:30`,
 * or an IANA zone name. Throws INVALID_INPUT naming the accepted forms.
 */
export function parseZone(text: string): Zone {
  const trimmed = text.trim();
  if (UTC_NAMES.has(trimmed.toLowerCase())) return { kind: "fixed", offsetMinutes: 0, name: "UTC" };
  const offset = OFFSET.exec(trimmed);
  if (offset !== null) {
    const [, sign, hours, minutes = "0"] = offset;
    const total = Number(hours) * 60 + Number(minutes);
    if (Number(minutes) > 59 || total > MAX_OFFSET_MINUTES) {
      throw badArgument(
        "timezone",
        `'${text}' is not a UTC offset: hours go up to 23 and minutes up to 59, as in "+05:30".`,
      );
    }
    const offsetMinutes = sign === "-" ? -total : total;
    return { kind: "fixed", offsetMinutes, name: `UTC${formatOffset(offsetMinutes, ":")}` };
  }
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(trimmed)) {
    try {
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone: trimmed,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        timeZoneName: "short",
      });
      return { kind: "iana", id: format.resolvedOptions().timeZone, format };
    } catch {
      // An unknown name falls through to the message below.
    }
  }
  throw badArgument(
    "timezone",
    `'${text}' is not a time zone: use "utc", a UTC offset such as "+05:30" or "-08:00", or an IANA name such as "Europe/Paris".`,
  );
}

/** The zone's offset and name at the instant `ms` (milliseconds since the Unix epoch). */
export function zoneAt(zone: Zone, ms: number): ZoneAt {
  if (zone.kind === "fixed") return { offsetMinutes: zone.offsetMinutes, name: zone.name };
  const parts = Object.fromEntries(zone.format.formatToParts(ms).map((part) => [part.type, part.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const wholeSeconds = Math.floor(ms / 1000) * 1000;
  return { offsetMinutes: Math.round((wall - wholeSeconds) / 60_000), name: parts.timeZoneName ?? zone.id };
}

/** `+05:30` with `separator` ":", `+0530` with "". */
export function formatOffset(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const total = Math.abs(offsetMinutes);
  const hours = String(Math.floor(total / 60)).padStart(2, "0");
  const minutes = String(total % 60).padStart(2, "0");
  return `${sign}${hours}${separator}${minutes}`;
}
