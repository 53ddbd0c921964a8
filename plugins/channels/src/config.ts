// The plugin's config, read in this one place: one section per channel, each with its secret,
// where answers go, the agent its messages talk to, and who its senders are in oz0.
import type { AdminIssue, JsonSchemaObject, PluginConfig } from "@oz0/sdk";

/** What every channel's section has besides its own fields. */
interface Routing {
  /** `<plugin>/<agent>`: the agent a thread chats with. Left out, messages only fire routines. */
  readonly agent?: string;
  /** A sender's ID on the surface to an oz0 user name, for approvals and answers. */
  readonly members: Readonly<Record<string, string>>;
}

export interface WebhookConfig extends Routing {
  /** Signs requests in and answers out (HMAC-SHA256). */
  readonly secret?: string;
  /** Where answers are POSTed. */
  readonly url?: string;
  /**
   * Set, notifications are on: a thread's answer carries the notification of what its job waits
   * for; `url`, when given, is POSTed every other approval and question of the tenant.
   */
  readonly notifications?: { readonly url?: string };
}

export interface SlackConfig extends Routing {
  /** The app's signing secret (Basic Information, App Credentials). */
  readonly signingSecret?: string;
  /** The bot's OAuth token (`xoxb-…`), for chat.postMessage. */
  readonly botToken?: string;
  /** Slack's Web API base; another only for a Slack-compatible server. */
  readonly apiUrl: string;
  /**
   * Set, notifications are on: a thread whose job waits for a person is told what the job would
   * do, with approve and deny buttons; `channel`, when given, is told of every approval and
   * question of the tenant too.
   */
  readonly notifications?: { readonly channel?: string };
}

export const SLACK_API = "https://slack.com/api";
const MASK = "[redacted]";

export function webhookConfig(config: PluginConfig): WebhookConfig {
  const section = sectionOf(config, "webhook");
  return {
    ...routing(section),
    ...text(section, "secret"),
    ...text(section, "url"),
    ...(objectOf(section.notifications) === undefined
      ? {}
      : { notifications: text(objectOf(section.notifications)!, "url") }),
  };
}

export function slackConfig(config: PluginConfig): SlackConfig {
  const section = sectionOf(config, "slack");
  return {
    ...routing(section),
    ...text(section, "signingSecret"),
    ...text(section, "botToken"),
    apiUrl: (typeof section.apiUrl === "string" && section.apiUrl !== ""
      ? section.apiUrl
      : SLACK_API
    ).replace(/\/+$/, ""),
    ...notifications(section.notifications),
  };
}

function notifications(value: unknown): Pick<SlackConfig, "notifications"> {
  const section = objectOf(value);
  return section === undefined ? {} : { notifications: text(section, "channel") };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const members = {
  type: "object",
  description:
    "A sender's ID on the surface to an oz0 user name: who may approve and answer from the channel.",
  additionalProperties: { type: "string" },
} as const;
const agent = {
  type: "string",
  description: "The agent a thread chats with: <plugin>/<agent>.",
  pattern: "^[a-z0-9][a-z0-9-]*/[A-Za-z0-9][A-Za-z0-9_-]*$",
} as const;

export const WEBHOOK_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    webhook: {
      type: "object",
      additionalProperties: false,
      properties: {
        secret: {
          type: "string",
          minLength: 16,
          description: "Signs requests in and answers out (HMAC-SHA256).",
        },
        url: { type: "string", pattern: "^https?://", description: "Where answers are POSTed." },
        agent,
        members,
        notifications: {
          type: "object",
          additionalProperties: false,
          description:
            "Set, notifications are on: a thread's answer carries the notification of the approval or question its job waits for.",
          properties: {
            url: {
              type: "string",
              pattern: "^https?://",
              description: "POSTed every other approval and question of the tenant, signed like answers.",
            },
          },
        },
      },
    },
  },
};

export const SLACK_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    slack: {
      type: "object",
      additionalProperties: false,
      properties: {
        signingSecret: { type: "string", minLength: 1, description: "The Slack app's signing secret." },
        botToken: { type: "string", minLength: 1, description: "The bot's OAuth token (xoxb-…)." },
        apiUrl: { type: "string", pattern: "^https?://", description: `Slack's Web API (${SLACK_API}).` },
        agent,
        members,
        notifications: {
          type: "object",
          additionalProperties: false,
          description:
            "Set, notifications are on: a thread whose job waits for approval or an answer is told what it would do, with approve and deny buttons.",
          properties: {
            channel: {
              type: "string",
              pattern: "^[A-Z0-9]+$",
              description:
                "A Slack conversation ID (C…) told of every approval and question of the tenant too.",
            },
          },
        },
      },
    },
  },
};

/** The problems of a section that is set but could not run: no secret, nowhere to answer. */
export function webhookIssues(config: PluginConfig): AdminIssue[] {
  if (config.webhook === undefined) return [];
  const read = webhookConfig(config);
  const issues: AdminIssue[] = [];
  if (read.secret === undefined)
    issues.push({
      path: "webhook.secret",
      message: "the webhook channel verifies every request with its secret; set one",
    });
  if (read.url === undefined)
    issues.push({ path: "webhook.url", message: "answers are POSTed to this URL; set one" });
  return issues;
}

export function slackIssues(config: PluginConfig): AdminIssue[] {
  if (config.slack === undefined) return [];
  const read = slackConfig(config);
  const issues: AdminIssue[] = [];
  if (read.signingSecret === undefined)
    issues.push({
      path: "slack.signingSecret",
      message: "Slack's requests are verified with the signing secret; set it",
    });
  if (read.botToken === undefined)
    issues.push({ path: "slack.botToken", message: "answers are posted with the bot token; set it" });
  return issues;
}

/** The config with the channels' secrets masked. */
export function redactSecrets(config: PluginConfig): PluginConfig {
  const masked: Record<string, unknown> = { ...config };
  const mask = (name: string, fields: readonly string[]) => {
    const section = config[name];
    if (typeof section !== "object" || section === null) return;
    const copy: Record<string, unknown> = { ...(section as Record<string, unknown>) };
    for (const field of fields) if (typeof copy[field] === "string") copy[field] = MASK;
    masked[name] = copy;
  };
  mask("webhook", ["secret"]);
  mask("slack", ["signingSecret", "botToken"]);
  return masked;
}

function sectionOf(config: PluginConfig, name: string): Record<string, unknown> {
  const section = config[name];
  return typeof section === "object" && section !== null && !Array.isArray(section)
    ? (section as Record<string, unknown>)
    : {};
}

function text<K extends string>(section: Record<string, unknown>, key: K): { [P in K]?: string } {
  const value = section[key];
  return (typeof value === "string" && value !== "" ? { [key]: value } : {}) as { [P in K]?: string };
}

function routing(section: Record<string, unknown>): Routing {
  const listed = section.members;
  const map: Record<string, string> = {};
  if (typeof listed === "object" && listed !== null) {
    for (const [id, user] of Object.entries(listed)) if (typeof user === "string") map[id] = user;
  }
  return { ...text(section, "agent"), members: map };
}
