// The `mcpServers` JSON people already have (Claude Desktop's
// `claude_desktop_config.json`, Cursor's `.cursor/mcp.json`, a project's `.mcp.json`) as an oz0
// plugin, one MCP-backed tool per server (oz0 mcp import, and a Claude Code plugin's .mcp.json). Values that look like secrets (an env variable
// or header named like a key or token, a value shaped like one, or a `${VAR}` taken from the
// importing shell) never reach the folder: they become the tenant's MCP secrets, encrypted, and
// the manifest says only their names. Anything oz0 cannot run as written is refused, naming it.
import { nameProblem, Oz0Error } from "@oz0/sdk";
import { stringifyYaml } from "@oz0/sdk/internal";

/** Where a secret goes in an MCP server's spec: an environment variable, or an HTTP header. */
type McpSecretKind = "env" | "header";

/** One secret the import keeps in the tenant instead of the folder. */
export interface McpImportSecret {
  /** The tool ID it belongs to. */
  readonly tool: string;
  readonly kind: McpSecretKind;
  readonly name: string;
  readonly value: string;
  /** Why it was taken for a secret. */
  readonly why: string;
}

/** One server of the file, as the tool it became. */
export interface McpImportedTool {
  /** The server's name in the file. */
  readonly server: string;
  /** The tool ID: the server's name, changed only where oz0's tool ID rule requires. */
  readonly id: string;
  readonly transport: "stdio" | "http";
}

export interface McpImport {
  readonly plugin: string;
  readonly tools: readonly McpImportedTool[];
  /** `plugin.yaml`, with no secret value in it. */
  readonly manifest: string;
  readonly secrets: readonly McpImportSecret[];
}

export interface McpImportOptions {
  /** Where the JSON came from, for messages. */
  readonly file: string;
  /** The plugin's name. */
  readonly plugin: string;
  /** Where `${VAR}` values are read from: the importing process's environment by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const STDIO_KEYS = new Set(["type", "command", "args", "env"]);
const HTTP_KEYS = new Set(["type", "url", "headers"]);
const SECRET_NAME =
  /(^|[_-])(api[_-]?key|key|keys|token|tokens|secret|secrets|password|passwd|pass|pwd|auth|authorization|credential|credentials|private|session|cookie|bearer|pat)($|[_-])/i;
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|ghu_|ghs_|github_pat_|xox[abprs]-|glpat-|AKIA|AIza|Bearer\s)/;
const REFERENCE = /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Reads `text`, an `mcpServers` JSON file, as a plugin named `options.plugin`. Throws
 * INVALID_INPUT, naming the server and field, for anything it cannot import as written.
 * @example importMcpServers('{"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/srv"]}}}', { file: "mcp.json", plugin: "files" })
 */
export function importMcpServers(text: string, options: McpImportOptions): McpImport {
  const { file } = options;
  const pluginProblem = nameProblem("plugin", options.plugin);
  if (pluginProblem !== undefined) {
    throw invalid(
      file,
      "name",
      `cannot be imported as that plugin: ${pluginProblem}; pass another with --name`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, "", `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(parsed) || !isObject(parsed.mcpServers)) {
    const vscode = isObject(parsed) && isObject(parsed.servers);
    throw invalid(
      file,
      "mcpServers",
      vscode
        ? "has servers: but no mcpServers: (VS Code's format, whose inputs and variables oz0 does not read); write the servers under mcpServers: as Claude Desktop, Cursor and .mcp.json do"
        : "has no mcpServers object; oz0 mcp import reads the mcpServers JSON of Claude Desktop (claude_desktop_config.json), Cursor (.cursor/mcp.json) and .mcp.json",
    );
  }
  const servers = Object.entries(parsed.mcpServers);
  if (servers.length === 0) throw invalid(file, "mcpServers", "lists no server");
  const env = options.env ?? process.env;
  const tools: McpImportedTool[] = [];
  const declared: Record<string, unknown>[] = [];
  const secrets: McpImportSecret[] = [];
  for (const [server, spec] of servers) {
    const at = `mcpServers.${server}`;
    const id = toolIdOf(file, server);
    const clash = tools.find((tool) => tool.id === id);
    if (clash !== undefined) {
      throw invalid(file, at, `becomes tool ID ${id}, as server ${clash.server} does; rename one of them`);
    }
    if (!isObject(spec)) throw invalid(file, at, "is not an object with command: or url:");
    const type = spec.type;
    if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
      throw invalid(
        file,
        `${at}.type`,
        type === "sse"
          ? "is sse, the MCP transport the protocol replaced with Streamable HTTP, which oz0 does not speak; use the server's Streamable HTTP address with type: http"
          : `is ${JSON.stringify(type)}; oz0 imports stdio and http (Streamable HTTP) servers`,
      );
    }
    const remote = spec.url !== undefined || type === "http" || type === "streamable-http";
    if (spec.url !== undefined && spec.command !== undefined) {
      throw invalid(file, at, "has both command: and url:; a server is started locally or reached over HTTP");
    }
    const allowed = remote ? HTTP_KEYS : STDIO_KEYS;
    for (const key of Object.keys(spec)) {
      if (!allowed.has(key)) {
        throw invalid(
          file,
          `${at}.${key}`,
          STDIO_KEYS.has(key) || HTTP_KEYS.has(key)
            ? `goes with ${remote ? "command:" : "url:"}, and this server has ${remote ? "url:" : "command:"}`
            : `is not something oz0 imports (it takes ${[...allowed].join(", ")}); remove it, or set it up in oz0 (policy rules, kill switches) after the import`,
        );
      }
    }
    const mcp: Record<string, unknown> = {};
    const kept = (kind: McpSecretKind, field: "env" | "headers") => {
      const values = spec[field];
      if (values === undefined) return;
      if (!isObject(values))
        throw invalid(file, `${at}.${field}`, "is not an object of names and text values");
      const plain: Record<string, string> = {};
      for (const [name, value] of Object.entries(values)) {
        if (typeof value !== "string") {
          throw invalid(file, `${at}.${field}.${name}`, `is ${describe(value)}; values are text`);
        }
        const secret = secretOf(file, `${at}.${field}.${name}`, kind, name, value, env);
        if (secret === undefined) plain[name] = value;
        else secrets.push({ tool: id, kind, name, ...secret });
      }
      if (Object.keys(plain).length > 0) mcp[field] = plain;
    };
    if (remote) {
      if (typeof spec.url !== "string" || !/^https?:\/\//.test(spec.url)) {
        throw invalid(file, `${at}.url`, "is not an http:// or https:// address");
      }
      mcp.url = spec.url;
      kept("header", "headers");
    } else {
      if (typeof spec.command !== "string" || spec.command.trim() === "") {
        throw invalid(
          file,
          `${at}.command`,
          "is missing or empty; a local server needs the command that starts it",
        );
      }
      mcp.command = spec.command;
      if (spec.args !== undefined) {
        if (!Array.isArray(spec.args) || spec.args.some((arg) => typeof arg !== "string")) {
          throw invalid(file, `${at}.args`, "is not a list of text arguments");
        }
        mcp.args = spec.args;
      }
      kept("env", "env");
    }
    tools.push({ server, id, transport: remote ? "http" : "stdio" });
    const named = secrets.filter((secret) => secret.tool === id).map((secret) => secret.name);
    declared.push({
      id,
      description:
        `The MCP server ${server}, imported from ${file}.` +
        (named.length === 0
          ? ""
          : ` Its secrets (${named.join(", ")}) are the tenant's: oz0 mcp secret list.`),
      mcp,
    });
  }
  const manifest = stringifyYaml(
    {
      name: options.plugin,
      version: "1.0.0",
      description: `MCP servers imported from ${file}.`,
      tools: declared,
    },
    { lineWidth: 0 },
  );
  return { plugin: options.plugin, tools, manifest, secrets };
}

/** The tool ID of server `name`: lowercase, with what the rule forbids turned into '-'. */
function toolIdOf(file: string, name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/^[^a-z]+/, "")
    .replace(/[_-]+$/, "");
  const problem = id === "" ? "has no letter to start a tool ID with" : nameProblem("tool", id);
  if (problem !== undefined || id === "oz") {
    throw invalid(
      file,
      `mcpServers.${name}`,
      `cannot become a tool ID (${problem ?? "oz is oz0's built-ins'"}); rename the server in the file`,
    );
  }
  return id;
}

/** Whether `value` of `name` is a secret, and why; a `${VAR}` is read from `env`. */
function secretOf(
  file: string,
  at: string,
  kind: McpSecretKind,
  name: string,
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string; why: string } | undefined {
  const reference = REFERENCE.exec(value);
  if (reference !== null) {
    const variable = reference[1]!;
    const found = env[variable];
    if (found === undefined || found === "") {
      throw invalid(
        file,
        at,
        `is \${${variable}}, and ${variable} is not set here; set it in this shell and import again, or set the secret afterwards (oz0 mcp secret set <plugin>/<tool> ${kind} ${name})`,
      );
    }
    return { value: found, why: `taken from $${variable}` };
  }
  if (/\$\{/.test(value)) {
    throw invalid(
      file,
      at,
      "holds a ${…} expansion inside other text, which oz0 does not expand; write the value itself",
    );
  }
  if (SECRET_NAME.test(name)) return { value, why: "its name says it is a secret" };
  if (SECRET_VALUE.test(value)) return { value, why: "its value is shaped like a key or token" };
  return undefined;
}

function invalid(file: string, path: string, problem: string): Oz0Error {
  const where = path === "" ? file : `${file}: ${path}`;
  return new Oz0Error("INVALID_INPUT", `${where} ${problem}.`, {
    data: { issues: [{ path: path === "" ? "file" : path, message: problem }] },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `the ${typeof value} ${JSON.stringify(value)}`;
}
