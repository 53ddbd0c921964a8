// A scheduled routine's ticks, computed by croner: cron with seconds, in the routine's time
// zone (UTC when it names none). Nothing here runs a timer; the scheduler asks for the ticks
// between two instants, so any number of processes compute the same ticks.
import type { Routine } from "@oz0/sdk";
import { Cron } from "croner";

/** A croner pattern for `routine`'s schedule; paused, since oz0 drives it from its own loop. */
export function cronOf(routine: Routine): Cron {
  if (routine.schedule === undefined) throw new Error(`routine ${routine.name} has no schedule`);
  return new Cron(routine.schedule, { paused: true, timezone: routine.timezone ?? "UTC" });
}

/**
 * The latest ticks of `routine` after `after` and at or before `until` (epoch ms), at most
 * `max`, oldest first: a scheduler that was away long needs only the last ones.
 */
export function ticksBetween(routine: Routine, after: number, until: number, max = 2): number[] {
  const cron = cronOf(routine);
  try {
    // previousRuns looks strictly before its reference, to the whole second.
    return cron
      .previousRuns(max, new Date(until + 1000))
      .map((date) => date.getTime())
      .filter((tick) => tick > after && tick <= until)
      .reverse();
  } finally {
    cron.stop();
  }
}

/** The next tick of `routine` after `after` (epoch ms), or undefined when it has none. */
export function nextTick(routine: Routine, after: number): number | undefined {
  const cron = cronOf(routine);
  try {
    return cron.nextRun(new Date(after))?.getTime();
  } finally {
    cron.stop();
  }
}
