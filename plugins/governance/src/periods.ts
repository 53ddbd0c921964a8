// Where a budget period begins, in UTC: the hour, the day, or the month that `now` is in.
import type { Period } from "./config.js";

export function periodStart(period: Period, now: number): number {
  const date = new Date(now);
  switch (period) {
    case "hour":
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours());
    case "day":
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    case "month":
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
}
