// The oz0 command line's entry, run by bin/oz0.js (which checks the Node.js version first).
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv.slice(2));
