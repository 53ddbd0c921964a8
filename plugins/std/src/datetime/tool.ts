// The `datetime` tool: the current date and time as ISO 8601, a Unix timestamp, or any
// strftime pattern, in UTC, at a UTC offset, or in an IANA zone.
import { defineTool, type ToolSpec } from "@oz0/sdk";
import { z } from "zod";
import type { ToolInfo } from "../tool-info.js";
import { strftime, wallTime } from "./strftime.js";
import { formatOffset, parseZone, zoneAt } from "./zone.js";

export interface DatetimeOptions {
  /** The clock, in milliseconds since the Unix epoch; tests fix it. */
  readonly now?: () => number;
}

export const datetimeInfo: ToolInfo = {
  id: "datetime",
  specName: "DateTimeTool",
  description:
    "The current date and time: ISO 8601, Unix timestamp or a strftime pattern, in any UTC offset.",
  keyOperations: "ISO, Unix, strftime, timezone",
  externalDeps: "None",
  governance: "—",
  notes: [
    "`format` is `iso` (the default), `unix`, or a strftime pattern. Directives: `%a %A %b %h %B %c %C %d %D %e %f %F %G %g %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %Z %%`, in the C locale (English names). `%f` is microseconds (the clock has milliseconds). The GNU flags `-` (no padding), `_` (pad with spaces) and `0` (pad with zeros) go between `%` and the letter: `%-d`. An unknown directive is refused with its position.",
    "`timezone` is `utc` (the default), a UTC offset (`+05:30`, `-0800`, `+05`, `UTC+05:30`), or an IANA zone name (`Europe/Paris`); `%Z` prints `UTC`, `UTC+05:30`, or the zone's short name.",
    "A pattern is at most 256 characters.",
  ],
  examples: [
    {
      function: "now",
      args: {},
      result: { datetime: "2026-04-11T13:00:31.566+00:00", format: "iso" },
      checked: true,
    },
    {
      function: "now",
      args: { format: "unix" },
      result: { timestamp: 1775912431.566, format: "unix" },
      checked: true,
    },
    {
      function: "now",
      args: { format: "%Y-%m-%d", timezone: "+05:30" },
      result: { datetime: "2026-04-11", format: "%Y-%m-%d" },
      checked: true,
    },
    {
      function: "now",
      args: { format: "%A %-d %B %Y, %H:%M %Z", timezone: "America/New_York" },
      result: { datetime: "Saturday 11 April 2026, 09:00 EDT", format: "%A %-d %B %Y, %H:%M %Z" },
      checked: true,
    },
  ],
};

const nowInput = z.object({
  format: z
    .string()
    .default("iso")
    .describe(
      '"iso" (ISO 8601), "unix" (seconds since 1970), or a strftime pattern such as "%Y-%m-%d %H:%M".',
    ),
  timezone: z
    .string()
    .default("utc")
    .describe('"utc", a UTC offset such as "+05:30", or an IANA zone name such as "Europe/Paris".'),
});

/** The datetime tool, reading the time from `options.now` (the system clock by default). */
export function datetimeTool(options: DatetimeOptions = {}): ToolSpec {
  const clock = options.now ?? Date.now;
  const now = defineTool({
    name: "now",
    description:
      "Get the current date and time, as ISO 8601, a Unix timestamp, or formatted with a strftime pattern, in a time zone.",
    input: nowInput,
    run: ({ format, timezone }) => {
      const zone = parseZone(timezone);
      const epochMs = clock();
      const keyword = format.trim().toLowerCase();
      if (keyword === "unix") return { timestamp: epochMs / 1000, format: "unix" };
      const time = wallTime(epochMs, zoneAt(zone, epochMs));
      if (keyword === "iso") return { datetime: isoString(epochMs, time.zone.offsetMinutes), format: "iso" };
      return { datetime: strftime(format, time), format };
    },
  });
  return {
    name: datetimeInfo.id,
    description: datetimeInfo.description,
    build: () => ({ functions: [now] }),
  };
}

/** ISO 8601 with milliseconds and the offset as `+00:00`, as Python's isoformat() writes it. */
function isoString(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, -1);
  return `${local}${formatOffset(offsetMinutes, ":")}`;
}
