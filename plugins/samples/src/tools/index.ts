// The handlers the kind: Tool manifests under tools/ name, one module each.
export { lookup as getAttractions } from "./get-attractions.js";
export { lookup as getSchedule } from "./get-schedule.js";
export type { ToolHandler } from "./handler.js";
export { get as memoryGet } from "./memory-get.js";
export { search as memorySearch } from "./memory-search.js";
export { verify as verifyFact } from "./verify-fact.js";
export { search as webSearch } from "./web-search.js";
