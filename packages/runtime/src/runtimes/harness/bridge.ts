// The MCP server command an ACP harness is given for the agent's tools: it joins its stdin and
// stdout to the job's tool server, a Unix socket in a folder only this user may open. It
// imports nothing of oz0's and runs as its own process, started by the harness.
import { connect } from "node:net";

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write("usage: bridge <socket>\n");
  process.exit(2);
}
const socket = connect(path);
socket.on("error", (error) => {
  process.stderr.write(`oz0 tool bridge: ${error.message}\n`);
  process.exit(1);
});
socket.on("close", () => process.exit(0));
process.stdin.pipe(socket);
socket.pipe(process.stdout);
process.stdin.on("end", () => socket.end());
