// What the call scope (runtime scope/) costs a function call: every call of a job runs inside
// an AsyncLocalStorage scope so that ctx.memory and ctx.records find the call they serve. This
// times an async function called directly against the same function called through
// `inCallScope`, interleaved, and prints the difference per call beside the step it is part of
// (`bench/engine.ts` prints that). Run it with `npm run bench`.
import { inCallScope } from "../packages/runtime/src/scope/index.js";

const CALLS = 200_000;
const ROUNDS = 7;
const scope = { tenant: "default", jobId: "job", callId: "call" };

async function tool(args: { readonly n: number }): Promise<number> {
  await null;
  return args.n + 1;
}

async function direct(): Promise<number> {
  let sum = 0;
  for (let n = 0; n < CALLS; n += 1) sum += await tool({ n });
  return sum;
}

async function scoped(): Promise<number> {
  let sum = 0;
  for (let n = 0; n < CALLS; n += 1) sum += await inCallScope(scope, () => tool({ n }));
  return sum;
}

/** µs per call of one run of `calls`. */
async function perCall(calls: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const sum = await calls();
  if (sum !== (CALLS * (CALLS + 1)) / 2) throw new Error("the calls did not all run");
  return ((performance.now() - started) * 1000) / CALLS;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const times = { direct: [] as number[], scoped: [] as number[] };
await perCall(direct);
await perCall(scoped);
for (let round = 0; round < ROUNDS; round += 1) {
  times.direct.push(await perCall(direct));
  times.scoped.push(await perCall(scoped));
}
const [plain, inScope] = [median(times.direct), median(times.scoped)];
console.log(`a function call in its call scope, the median of ${ROUNDS} runs of ${CALLS} calls each`);
console.log(`direct call            ${plain.toFixed(3)} µs`);
console.log(`in the call scope      ${inScope.toFixed(3)} µs`);
console.log(`the scope's cost       ${(inScope - plain).toFixed(3)} µs per call`);
