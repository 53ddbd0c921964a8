// The commands that run only on this machine, each with why: given --server (or OZ0_SERVER),
// they refuse at once, before anything runs, rather than act here and ignore the server. Every
// other command goes through the server's API. A command that opens the embedded runtime with
// withLocalRuntime must be listed here (a test runs each of them with --server).

const ON_THIS_MACHINE = "it acts on this machine's files, not on a server";

/** `oz0 <words>` → why it cannot go through a server. */
export const LOCAL_ONLY: Readonly<Record<string, string>> = {
  init: `${ON_THIS_MACHINE} (it writes a new plugin folder)`,
  serve: "it is the server: it serves the home or database of this machine",
  "node run": "a node runs jobs from the store itself; start it where the server's home or database is",
  "plugin lint": `${ON_THIS_MACHINE} (it reads the plugin folder; oz0 plugin install --server lints it on the server)`,
  "plugin pack": `${ON_THIS_MACHINE} (it writes the archive; oz0 plugin install --server packs and uploads the folder)`,
  "mcp serve":
    "it serves MCP to a client on this machine's stdio or port from the embedded runtime; an MCP client reaches the server's own at <server>/v1/t/<tenant>/mcp with its API key",
  "mcp login": "the sign-in opens a browser on this machine and keeps the tokens in the home",
};

/** Why `oz0 <words>` cannot go through a server; undefined when it can. */
export function localOnlyReason(words: string): string | undefined {
  return Object.hasOwn(LOCAL_ONLY, words) ? LOCAL_ONLY[words] : undefined;
}
