// Drawing the runtime's data for a terminal: cards (a job's answer as its output schema shapes it).
export { drawCard } from "./card.js";
