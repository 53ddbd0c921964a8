// get_schedule: opening hours, timetables and events of a city from data/schedules.json, for
// one date (what is open that day of the week, and that day's events) or for every day.

import { readData } from "../data.js";
import { badArgument, notFound } from "../errors.js";
import type { ToolHandler } from "./handler.js";

interface ScheduleEntry {
  readonly name: string;
  readonly kind: string;
  /** Weekdays it is open or runs (`mon` … `sun`); an event has `dates` instead. */
  readonly days?: readonly string[];
  readonly dates?: readonly string[];
  readonly opens: string;
  readonly closes: string;
  readonly notes: string;
}

interface Schedules {
  readonly cities: Readonly<
    Record<string, { readonly name: string; readonly entries: readonly ScheduleEntry[] }>
  >;
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

export const lookup: ToolHandler<{ city: string; date?: string; name?: string }> = async (args) => {
  const { cities } = await readData<Schedules>("schedules.json");
  const city = cities[args.city.trim().toLowerCase()];
  if (city === undefined) {
    const known = Object.values(cities).map((entry) => entry.name);
    throw notFound(
      "city",
      args.city,
      `city: no schedules for '${args.city}'; the samples have ${known.join(", ")}`,
    );
  }
  const weekday = args.date === undefined ? undefined : weekdayOf(args.date);
  const named = args.name?.trim().toLowerCase();
  const entries = city.entries.filter((entry) => {
    if (named !== undefined && !entry.name.toLowerCase().includes(named)) return false;
    if (args.date === undefined) return true;
    return entry.dates !== undefined
      ? entry.dates.includes(args.date)
      : (entry.days ?? []).includes(weekday ?? "");
  });
  return { city: city.name, date: args.date ?? null, weekday: weekday ?? null, entries };
};

/** `mon` … `sun` of a YYYY-MM-DD date; refuses a date that is not one. */
function weekdayOf(date: string): string {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : undefined;
  if (parsed === undefined || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw badArgument("date", `'${date}' is not a date; write YYYY-MM-DD, such as 2026-05-15`);
  }
  return WEEKDAYS[parsed.getUTCDay()] ?? "";
}
