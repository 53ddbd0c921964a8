// The calculator tool: a hand-written tokenizer and recursive-descent evaluator.

export { CONSTANTS, evaluate, FUNCTIONS, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from "./evaluate.js";
export { type SymbolText, type Token, tokenize } from "./tokenize.js";
export { calculatorInfo, calculatorTool } from "./tool.js";
