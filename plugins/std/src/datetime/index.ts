// The datetime tool: current time in ISO, Unix or strftime form, in any zone.

export { MAX_PATTERN_LENGTH, STRFTIME_DIRECTIVES, strftime, type WallTime, wallTime } from "./strftime.js";
export { type DatetimeOptions, datetimeInfo, datetimeTool } from "./tool.js";
export { formatOffset, parseZone, type Zone, type ZoneAt, zoneAt } from "./zone.js";
