// strftime by hand: every directive, the GNU padding flags, week numbers, and the refusals.
import { describe, expect, it } from "vitest";
import { MAX_PATTERN_LENGTH, parseZone, strftime, wallTime, zoneAt } from "../../src/datetime/index.js";
import { FIXED_NOW } from "../helpers.js";

const at = (ms: number, zone = "utc") => wallTime(ms, zoneAt(parseZone(zone), ms));
/** Saturday 2026-04-11 13:00:31.566 UTC. */
const t = at(FIXED_NOW);

describe("strftime", () => {
  it("prints the common directives %Y %m %d %H %M %S %j %a %A %b %B %p %y %z %Z %%", () => {
    expect(strftime("%Y %m %d %H %M %S %j %a %A %b %B %p %y %z %Z %%", t)).toBe(
      "2026 04 11 13 00 31 101 Sat Saturday Apr April PM 26 +0000 UTC %",
    );
  });

  it("prints the composite directives %c %D %F %T %R %r %x %X as the C locale does", () => {
    expect(strftime("%c|%D|%F|%T|%R|%r|%x|%X", t)).toBe(
      "Sat Apr 11 13:00:31 2026|04/11/26|2026-04-11|13:00:31|13:00|01:00:31 PM|04/11/26|13:00:31",
    );
  });

  it("prints 12-hour clocks, weekdays as numbers, microseconds and Unix seconds", () => {
    expect(strftime("%I %l %k %P %u %w %f %s %C %e %h", t)).toBe(
      `01  1 13 pm 6 6 566000 ${Math.floor(FIXED_NOW / 1000)} 20 11 Apr`,
    );
  });

  it("numbers weeks by Sunday (%U), by Monday (%W) and by ISO 8601 (%G %g %V)", () => {
    expect(strftime("%U %W %G-W%V %g", t)).toBe("14 14 2026-W15 26");
    // 2027-01-01 is a Friday: ISO week 53 of 2026; no Sunday or Monday yet in 2027.
    expect(strftime("%U %W %G-W%V", at(Date.UTC(2027, 0, 1)))).toBe("00 00 2026-W53");
    // 2024-12-30 is a Monday in ISO week 1 of 2025.
    expect(strftime("%G-W%V %j", at(Date.UTC(2024, 11, 30)))).toBe("2025-W01 365");
  });

  it("takes the GNU padding flags - _ and 0", () => {
    const morning = at(Date.UTC(2026, 0, 5, 7, 3, 9));
    expect(strftime("%-d/%-m %-H:%M %_d %_H %0e %-e %-j", morning)).toBe("5/1 7:03  5  7 05 5 5");
  });

  it("prints the offset as +05:30 with %:z and the zone as UTC+05:30 with %Z", () => {
    expect(strftime("%z %:z %Z", at(FIXED_NOW, "+05:30"))).toBe("+0530 +05:30 UTC+05:30");
    expect(strftime("%z %:z %Z", at(FIXED_NOW, "-03:30"))).toBe("-0330 -03:30 UTC-03:30");
  });

  it("prints tabs and newlines with %t and %n, and text between directives as is", () => {
    expect(strftime("day%t%d%nend", t)).toBe("day\t11\nend");
  });

  it("refuses a lone % at the end, and an unknown directive, with its position", () => {
    expect(() => strftime("%Y %", t)).toThrow("a '%' with no directive letter at position 4");
    expect(() => strftime("%d %-K", t)).toThrow("unknown directive '%-K' at position 4");
  });

  it(`refuses a pattern longer than ${MAX_PATTERN_LENGTH} characters`, () => {
    expect(() => strftime("x".repeat(MAX_PATTERN_LENGTH + 1), t)).toThrow(
      expect.objectContaining({ code: "LIMIT_EXCEEDED" }),
    );
  });
});
