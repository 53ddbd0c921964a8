// Drawing for a terminal: cards (a job's answer as its output schema shapes it), and the one
// escape every text oz0 prints passes.
export { drawCard } from "./card.js";
export { forTerminal } from "./terminal.js";
