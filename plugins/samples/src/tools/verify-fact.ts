// verify_fact: checks a claim against the sample's fact base (data/facts.json). A claim is
// matched to the known statement that shares most of its words and every number it names;
// unmatched claims are `unverified`, never guessed.
import { readData } from "../data.js";
import { contentWords, coverage, numbersIn, round2 } from "../words.js";
import type { ToolHandler } from "./handler.js";

interface Fact {
  readonly statement: string;
  readonly verdict: "supported" | "refuted";
  readonly correction?: string;
  readonly source: string;
}

/** The share of a known statement's words a claim must have to be judged by it. */
const MATCH_AT_LEAST = 0.6;

export const verify: ToolHandler<{ claim: string }> = async (args) => {
  const { facts } = await readData<{ facts: readonly Fact[] }>("facts.json");
  const claim = contentWords(args.claim);
  const numbers = numbersIn(claim).join(" ");
  let best: { fact: Fact; score: number } | undefined;
  for (const fact of facts) {
    const statement = contentWords(fact.statement);
    if (numbersIn(statement).join(" ") !== numbers) continue;
    const score = Math.min(coverage(claim, statement), coverage(statement, claim));
    if (best === undefined || score > best.score) best = { fact, score };
  }
  if (best === undefined || best.score < MATCH_AT_LEAST) {
    return { claim: args.claim, verdict: "unverified", confidence: 0, evidence: null, source: null };
  }
  const { fact, score } = best;
  return {
    claim: args.claim,
    verdict: fact.verdict,
    confidence: round2(score),
    evidence: fact.statement,
    ...(fact.correction === undefined ? {} : { correction: fact.correction }),
    source: fact.source,
  };
};
