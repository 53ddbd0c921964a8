// The std plugin's configuration, set by an operator for the tenant: hosts the http tool may
// reach although they are internal, and the time a regular expression may run. Read when a
// tool is built, so a mistake is reported then, with its path.
import { Oz0Error, type ToolContext } from "@oz0/sdk";
import { z } from "zod";

/** The default time one regular expression may run, in milliseconds. */
export const DEFAULT_REGEX_TIMEOUT_MS = 1000;

/** An operator's allow-list entry: a host name or address, and a port when one was given. */
export interface AllowedHost {
  /** As the URL parser writes it: lowercase, IPv4 in dotted form, IPv6 in brackets. */
  readonly hostname: string;
  readonly port?: number;
}

export interface StdConfig {
  readonly http: { readonly allowHosts: readonly AllowedHost[] };
  readonly text: { readonly regexTimeoutMs: number };
}

const allowedHost = z.string().transform((entry, ctx): AllowedHost => {
  const parsed = parseHostEntry(entry);
  if (parsed === undefined) {
    ctx.addIssue({
      code: "custom",
      message: `'${entry}' is not a host: write a name or address with an optional port, such as "intranet.example", "10.0.0.5:8080" or "[fd00::1]:443"`,
    });
    return z.NEVER;
  }
  return parsed;
});

const configSchema = z.looseObject({
  http: z
    .strictObject({
      allowHosts: z
        .array(allowedHost)
        .default([])
        .describe(
          "Internal hosts the http tool may reach, as host or host:port; every other non-public address is refused.",
        ),
    })
    .default({ allowHosts: [] }),
  text: z
    .strictObject({
      regexTimeoutMs: z
        .number()
        .int()
        .min(10)
        .max(60_000)
        .default(DEFAULT_REGEX_TIMEOUT_MS)
        .describe("How long one regular expression may run, in milliseconds."),
    })
    .default({ regexTimeoutMs: DEFAULT_REGEX_TIMEOUT_MS }),
});

/** Reads the plugin config; throws INVALID_INPUT listing every problem with its path. */
export function readStdConfig(config: ToolContext["config"]): StdConfig {
  const result = configSchema.safeParse(config);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  const list = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  throw new Oz0Error("INVALID_INPUT", `the std plugin's config is not valid: ${list}.`, { data: { issues } });
}

/** `host` or `host:port` as an AllowedHost, or undefined when it is not one. */
export function parseHostEntry(entry: string): AllowedHost | undefined {
  // The port is read here, not by the URL parser, which drops a scheme's default port (":80").
  const [, host = "", port] = /^(.*?)(?::(\d{1,5}))?$/.exec(entry.trim()) ?? [];
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    return undefined;
  }
  const bare = url.host === url.hostname && url.href === `http://${url.hostname}/`;
  if (!bare || /[/?#@\\]/.test(host) || (host.includes(":") && !host.startsWith("["))) return undefined;
  if (port === undefined) return { hostname: url.hostname };
  const number = Number(port);
  return number >= 1 && number <= 65_535 ? { hostname: url.hostname, port: number } : undefined;
}

/** The problems with `config` as the std plugin's config, for its admin spec's validate(). */
export function stdConfigIssues(config: ToolContext["config"]): { path: string; message: string }[] {
  const result = configSchema.safeParse(config);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

/** The config std runs with when an operator sets nothing. */
export const STD_DEFAULT_CONFIG = {
  http: { allowHosts: [] as string[] },
  text: { regexTimeoutMs: DEFAULT_REGEX_TIMEOUT_MS },
};
