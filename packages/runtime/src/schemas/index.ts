// JSON Schema checks (draft 2020-12, with formats) of what crosses a boundary: a call's
// arguments, a job's input and output, a plugin's configuration; each problem with its place.
export { type ArgumentIssue, argumentIssues, formatIssues } from "./validate.js";
