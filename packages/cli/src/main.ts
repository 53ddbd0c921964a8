// The oz0 command line's entry, run by bin/oz0.js (which checks the Node.js version first) and
// by the detached `oz0 job resume` that `oz0 run --no-wait` starts.
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv.slice(2));
