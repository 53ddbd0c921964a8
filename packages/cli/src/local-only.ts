// The commands that run only on this machine, each with why: given --server (or OZ0_SERVER),
// they refuse at once, before anything runs, rather than act here and ignore the server. Every
// other command goes through the server's API. A command that opens the embedded runtime with
// withLocalRuntime must be listed here (a test runs each of them with --server).

const ON_THIS_MACHINE = "it acts on this machine's files, not on a server";
const NO_ROUTE =
  "the server's API has no route for it yet; run it embedded, on a machine that has the home or database";

/** `oz0 <words>` → why it cannot go through a server. */
export const LOCAL_ONLY: Readonly<Record<string, string>> = {
  init: `${ON_THIS_MACHINE} (it writes a new plugin folder)`,
  serve: "it is the server: it serves the home or database of this machine",
  "node run": "a node runs jobs from the store itself; start it where the server's home or database is",
  "remote secret set": NO_ROUTE,
  "remote secret list": NO_ROUTE,
  "plugin lint": `${ON_THIS_MACHINE} (it reads the plugin folder; oz0 plugin install --server lints it on the server)`,
  "plugin pack": `${ON_THIS_MACHINE} (it writes the archive; oz0 plugin install --server packs and uploads the folder)`,
  "mcp serve": "it serves MCP to a client on this machine's stdio or port from the embedded runtime",
  "mcp status": NO_ROUTE,
  "mcp login": "the sign-in opens a browser on this machine and keeps the tokens in the home",
  "mcp import": NO_ROUTE,
  "mcp secret set": NO_ROUTE,
  "mcp secret list": NO_ROUTE,
  "mcp secret remove": NO_ROUTE,
  "skill proposals": NO_ROUTE,
  "skill proposal": NO_ROUTE,
  "skill approve": "it opens a pull request from this machine's git checkout",
  "skill reject": NO_ROUTE,
  "tenant create": NO_ROUTE,
  "tenant list": NO_ROUTE,
  "user add": NO_ROUTE,
  "user list": NO_ROUTE,
  "user remove": NO_ROUTE,
  "routine add": NO_ROUTE,
  "routine remove": NO_ROUTE,
  "routine secret": NO_ROUTE,
};

/** Why `oz0 <words>` cannot go through a server; undefined when it can. */
export function localOnlyReason(words: string): string | undefined {
  return Object.hasOwn(LOCAL_ONLY, words) ? LOCAL_ONLY[words] : undefined;
}
