// strftime by hand, with the C library's directives in the C locale and the GNU padding flags,
// so a pattern a model knows from Python or the shell prints what it expects.
import { badArgument, limitExceeded } from "../errors.js";
import { formatOffset, type ZoneAt } from "./zone.js";

/** The wall-clock fields of one instant in one zone. */
export interface WallTime {
  /** Milliseconds since the Unix epoch (the instant, not shifted). */
  readonly epochMs: number;
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** 0 is Sunday. */
  readonly weekday: number;
  /** 1–366. */
  readonly yearDay: number;
  readonly zone: ZoneAt;
}

const DAY_MS = 86_400_000;
export const MAX_PATTERN_LENGTH = 256;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The wall-clock fields of instant `epochMs` in a zone whose offset there is `zone`. */
export function wallTime(epochMs: number, zone: ZoneAt): WallTime {
  const shifted = new Date(epochMs + zone.offsetMinutes * 60_000);
  const year = shifted.getUTCFullYear();
  const startOfYear = Date.UTC(year, 0, 1);
  const startOfDay = Date.UTC(year, shifted.getUTCMonth(), shifted.getUTCDate());
  return {
    epochMs,
    year,
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    weekday: shifted.getUTCDay(),
    yearDay: Math.round((startOfDay - startOfYear) / DAY_MS) + 1,
    zone,
  };
}

/** A numeric directive: its value and its natural width. */
type Numeric = readonly [value: number, width: number];
type Directive = (t: WallTime) => string | Numeric;

const hour12 = (t: WallTime) => t.hour % 12 || 12;

const DIRECTIVES: Readonly<Record<string, Directive>> = {
  a: (t) => WEEKDAYS[t.weekday]!.slice(0, 3),
  A: (t) => WEEKDAYS[t.weekday]!,
  b: (t) => MONTHS[t.month - 1]!.slice(0, 3),
  h: (t) => MONTHS[t.month - 1]!.slice(0, 3),
  B: (t) => MONTHS[t.month - 1]!,
  c: (t) => strftime("%a %b %e %H:%M:%S %Y", t),
  C: (t) => [Math.floor(t.year / 100), 2],
  d: (t) => [t.day, 2],
  D: (t) => strftime("%m/%d/%y", t),
  e: (t) => spaced(t.day, 2),
  f: (t) => [t.millisecond * 1000, 6],
  F: (t) => strftime("%Y-%m-%d", t),
  G: (t) => [isoWeek(t).year, 4],
  g: (t) => [isoWeek(t).year % 100, 2],
  H: (t) => [t.hour, 2],
  I: (t) => [hour12(t), 2],
  j: (t) => [t.yearDay, 3],
  k: (t) => spaced(t.hour, 2),
  l: (t) => spaced(hour12(t), 2),
  m: (t) => [t.month, 2],
  M: (t) => [t.minute, 2],
  n: () => "\n",
  p: (t) => (t.hour < 12 ? "AM" : "PM"),
  P: (t) => (t.hour < 12 ? "am" : "pm"),
  r: (t) => strftime("%I:%M:%S %p", t),
  R: (t) => strftime("%H:%M", t),
  s: (t) => String(Math.floor(t.epochMs / 1000)),
  S: (t) => [t.second, 2],
  t: () => "\t",
  T: (t) => strftime("%H:%M:%S", t),
  u: (t) => [t.weekday === 0 ? 7 : t.weekday, 1],
  U: (t) => [Math.floor((t.yearDay - 1 + 7 - t.weekday) / 7), 2],
  V: (t) => [isoWeek(t).week, 2],
  w: (t) => [t.weekday, 1],
  W: (t) => [Math.floor((t.yearDay - 1 + 7 - ((t.weekday + 6) % 7)) / 7), 2],
  x: (t) => strftime("%m/%d/%y", t),
  X: (t) => strftime("%H:%M:%S", t),
  y: (t) => [t.year % 100, 2],
  Y: (t) => [t.year, 4],
  z: (t) => formatOffset(t.zone.offsetMinutes, ""),
  Z: (t) => t.zone.name,
  "%": () => "%",
};

/** The directive letters, for the docs and for error messages. */
export const STRFTIME_DIRECTIVES: readonly string[] = Object.keys(DIRECTIVES);

/**
 * Formats `t` by `pattern`. Each `%X` directive is replaced; `%-d` drops the padding,
 * `%_d` pads with spaces, `%0e` with zeros, and `%:z` prints the offset as `+05:30`.
 * Throws INVALID_INPUT for an unknown directive, naming its position.
 * @example strftime("%Y-%m-%d", t) // "2026-04-11"
 */
export function strftime(pattern: string, t: WallTime): string {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw limitExceeded(
      `format: the pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed.`,
      { limit: "format length", max: MAX_PATTERN_LENGTH, unit: "characters" },
    );
  }
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char !== "%") {
      out += char;
      continue;
    }
    const start = i;
    let flag = "";
    if ("-_0".includes(pattern[i + 1] ?? "")) flag = pattern[++i]!;
    if (pattern[i + 1] === ":" && pattern[i + 2] === "z") {
      out += formatOffset(t.zone.offsetMinutes, ":");
      i += 2;
      continue;
    }
    const letter = pattern[++i];
    const directive = letter === undefined ? undefined : DIRECTIVES[letter];
    if (directive === undefined)
      throw unknownDirective(pattern, start, letter === undefined ? undefined : pattern.slice(start, i + 1));
    out += render(directive(t), flag);
  }
  return out;
}

function render(value: string | Numeric, flag: string): string {
  if (typeof value === "string") {
    // A space-padded directive (%e, %k, %l) takes the flags too.
    const trimmed = value.trimStart();
    if (trimmed === value || flag === "") return value;
    if (flag === "-") return trimmed;
    return flag === "0" ? value.replace(/ /g, "0") : value;
  }
  const [number, width] = value;
  if (flag === "-") return String(number);
  return String(number).padStart(width, flag === "_" ? " " : "0");
}

/** A number padded with spaces to `width`, as %e, %k and %l print it. */
function spaced(value: number, width: number): string {
  return String(value).padStart(width, " ");
}

function isoWeek(t: WallTime): { year: number; week: number } {
  const date = Date.UTC(t.year, t.month - 1, t.day);
  const mondayBased = (t.weekday + 6) % 7;
  const thursday = date + (3 - mondayBased) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  return { year, week: 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) };
}

function unknownDirective(pattern: string, start: number, directive: string | undefined) {
  const what =
    directive === undefined ? "a '%' with no directive letter" : `unknown directive '${directive}'`;
  return badArgument(
    "format",
    `${what} at position ${start + 1} of '${pattern}'. Use "iso", "unix", or a strftime pattern with %Y %m %d %H %M %S %j %a %A %b %B %p %y %z %Z (the docs list all); write %% for a literal '%'.`,
  );
}
