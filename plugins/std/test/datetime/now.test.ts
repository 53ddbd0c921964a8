// datetime.now: the spec's three examples, offsets and zones, and the errors for a bad zone or pattern.
import { describe, expect, it } from "vitest";
import { call, callError, FIXED_NOW, loadStd } from "../helpers.js";

describe("datetime.now", () => {
  it("returns ISO 8601 in UTC by default, as the spec's first example", async () => {
    const host = await loadStd();
    expect(await call(host, "datetime.now")).toEqual({
      datetime: "2026-04-11T13:00:31.566+00:00",
      format: "iso",
    });
  });

  it("returns a Unix timestamp in seconds with format unix", async () => {
    const host = await loadStd();
    expect(await call(host, "datetime.now", { format: "unix" })).toEqual({
      timestamp: FIXED_NOW / 1000,
      format: "unix",
    });
  });

  it("formats any strftime pattern at a UTC offset such as +05:30", async () => {
    const host = await loadStd();
    expect(await call(host, "datetime.now", { format: "%Y-%m-%d", timezone: "+05:30" })).toEqual({
      datetime: "2026-04-11",
      format: "%Y-%m-%d",
    });
    expect(await call(host, "datetime.now", { format: "%H:%M %z %Z", timezone: "+05:30" })).toEqual({
      datetime: "18:30 +0530 UTC+05:30",
      format: "%H:%M %z %Z",
    });
  });

  it("writes the ISO form in the requested offset, and the date changes across midnight", async () => {
    const host = await loadStd();
    expect(await call(host, "datetime.now", { timezone: "+12:00" })).toEqual({
      datetime: "2026-04-12T01:00:31.566+12:00",
      format: "iso",
    });
    expect(await call(host, "datetime.now", { timezone: "-08:00" })).toEqual({
      datetime: "2026-04-11T05:00:31.566-08:00",
      format: "iso",
    });
  });

  it("accepts utc in any case and the offset spellings +0530, -08 and UTC+05:30", async () => {
    const host = await loadStd();
    const at = async (timezone: string) =>
      ((await call(host, "datetime.now", { format: "%H:%M %:z", timezone })) as { datetime: string })
        .datetime;
    expect(await at("UTC")).toBe("13:00 +00:00");
    expect(await at("+0530")).toBe("18:30 +05:30");
    expect(await at("-08")).toBe("05:00 -08:00");
    expect(await at("UTC+05:30")).toBe("18:30 +05:30");
  });

  it("accepts an IANA zone name, with its daylight-saving offset at that instant", async () => {
    const host = await loadStd();
    expect(
      await call(host, "datetime.now", { format: "%Y-%m-%d %H:%M %z %Z", timezone: "America/New_York" }),
    ).toEqual({
      datetime: "2026-04-11 09:00 -0400 EDT",
      format: "%Y-%m-%d %H:%M %z %Z",
    });
  });

  it("refuses an unknown time zone, naming the accepted forms", async () => {
    const host = await loadStd();
    for (const timezone of ["Mars/Olympus", "+25:00", "+05:75", "five"]) {
      const error = await callError(host, "datetime.now", { timezone });
      expect(error.code, timezone).toBe("INVALID_INPUT");
      expect(error.message).toContain("timezone");
      expect(error.message).toContain('"+05:30"');
    }
  });

  it("refuses an unknown strftime directive with its position", async () => {
    const host = await loadStd();
    const error = await callError(host, "datetime.now", { format: "%Y-%Q" });
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("unknown directive '%Q' at position 4");
  });

  it("reads the system clock when no clock is given", async () => {
    const { createStdPlugin } = await import("../../src/index.js");
    const { loadPluginForTest, callFunction } = await import("@oz0/sdk/testing");
    const host = await loadPluginForTest(createStdPlugin(), { pluginId: "std" });
    const before = Date.now() / 1000;
    const { timestamp } = (await callFunction(host, "datetime.now", { format: "unix" })) as {
      timestamp: number;
    };
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now() / 1000);
  });
});
