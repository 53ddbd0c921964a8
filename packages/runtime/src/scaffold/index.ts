// Scaffolding a new plugin folder (`oz0 init`).
export { type ScaffoldResult, scaffoldPlugin } from "./scaffold.js";
