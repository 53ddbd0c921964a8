// The tables of the oz0 store as Kysely sees them. Columns are portable across SQLite and
// PostgreSQL: text ids, JSON kept as text (the `Json` alias marks which), integer epoch-ms
// timestamps (the `*_at` columns), so one query works on both engines unchanged.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** Text holding a JSON document; parse it with `JSON.parse` and write it with `JSON.stringify`. */
export type Json = string;

/** Milliseconds since the Unix epoch; write `store.clockSql` to take the database's clock. */
export type EpochMs = number;

/** The kinds of catalog part; functions are indexed as `<tool>.<function>`. */
export const PART_KINDS = ["agent", "flow", "tool", "function", "skill"] as const;
export type PartKind = (typeof PART_KINDS)[number];

export const JOB_KINDS = ["agent", "flow"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATUSES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
  "dead",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job runs to an answer (`run`), or is a conversation that waits for the person after each one. */
export const JOB_MODES = ["run", "chat"] as const;
export type JobMode = (typeof JOB_MODES)[number];

/** `withdrawn`: nobody waits for the call any more (its MCP client stopped waiting), so nobody decides it. */
export const APPROVAL_STATUSES = ["pending", "approved", "denied", "withdrawn"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const POLICY_ACTIONS = ["allow", "ask", "deny"] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** What a kill switch or an inventory entry is about: an agent, or a whole tool ID. */
export const SWITCH_KINDS = ["agent", "tool"] as const;
export type SwitchKind = (typeof SWITCH_KINDS)[number];

/** The tenant `default` exists from the first migration on; embedded mode uses only it. */
export const DEFAULT_TENANT = "default";

export interface TenantsTable {
  name: string;
  created_at: EpochMs;
  /** Moves on with every change of the tenant's tool policy or kill switches (migration 4). */
  governance_version: Generated<number>;
  /** Moves on with every change of the tenant's plugins, parts, grants or settings (migration 20's triggers). */
  catalog_version: Generated<number>;
}

/** One row per plugin installed in a tenant. */
export interface PluginsTable {
  tenant: string;
  name: string;
  version: string;
  /**
   * Where the plugin was installed from (its folder, or what an archive install names), kept
   * only to say so and for `oz0 plugin update` messages: the plugin runs from `bundle`.
   */
  dir: string;
  /** The digest of the bundle it runs from (migration 10); null for a row older than bundles. */
  bundle: ColumnType<string | null, string | null | undefined, string | null>;
  manifest: Json;
  installed_at: EpochMs;
  /** Set when an install or update went through with `--force --reason TEXT`. */
  forced_reason: string | null;
}

/**
 * A tenant admin's grant of what a plugin's `uses:` asks (migration 14): a call, delegation or
 * skill load of another plugin's part runs only within both the plugin's `uses:` and this.
 */
export interface PluginGrantsTable {
  tenant: string;
  plugin: string;
  /** The plugin's version whose `uses:` was granted. */
  version: string;
  /** The `uses:` granted, as JSON: `{ <plugin>: { tools?, agents?, skills?, version? } }`. */
  uses: Json;
  /** The actor who granted it (`migration 14` for plugins installed before grants were kept). */
  granted_by: string;
  granted_at: EpochMs;
}

/**
 * The catalog index: one row per part a plugin defines. Unique per plugin, deliberately not
 * per tenant: a tenant may hold two agents of one name "from before installs refused it", and
 * the runtime must see both to withhold the name. The install path enforces uniqueness.
 */
export interface PartsTable {
  tenant: string;
  kind: PartKind;
  name: string;
  plugin: string;
  definition: Json;
}

export interface JobsTable {
  id: string;
  tenant: string;
  /** The agent's or flow's bare name; the spec keeps the bare name in everything stored. */
  name: string;
  /** The plugin that owned the part when the job started. */
  plugin: string;
  kind: JobKind;
  /** The task queue nodes claim the job from: `pool.<plugin>` or `pool.<plugin>.<labels>`. */
  queue: string;
  status: JobStatus;
  input: Json;
  output: Json | null;
  /** `{ kind, message }` once the job failed. */
  failure: Json | null;
  parent_id: string | null;
  depth: Generated<number>;
  created_at: EpochMs;
  updated_at: EpochMs;
  /** The node holding the job while it runs; a lease that expired lets another node resume it. */
  lease_owner: string | null;
  lease_expires_at: EpochMs | null;
  attempts: Generated<number>;
  /** A JSON array of strings. */
  tags: ColumnType<Json, Json | undefined, Json>;
  /** `chat` for a conversation (`oz0 chat`): it waits for the person after each answer. */
  mode: ColumnType<JobMode, JobMode | undefined, JobMode>;
  /** What a `waiting` job waits for, as JSON: a person's answer, or child jobs. */
  waiting_for: Json | null;
  /** Who asked to cancel the job; the worker holding it stops at its next step. */
  cancel_requested_by: string | null;
  /**
   * The W3C traceparent of the span the job's runs are children of: its parent job's, or its
   * first run's. Null until a run with telemetry starts, or when started without any.
   */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
  /** The shared pool the job runs in (migration 15); null for its plugin's own pool. */
  pool: ColumnType<string | null, string | null | undefined, string | null>;
  /** The node labels the job requires, sorted and comma-joined; '' for none. */
  labels: ColumnType<string, string | undefined, string>;
  /** The oldest job format a node must understand to run the job. */
  needs_format: ColumnType<number, number | undefined, number>;
  /** The last event's seq at the job's latest claim: the next claim counts an attempt only without progress since. */
  progress_seq: ColumnType<number, number | undefined, number>;
  /** How many notes in `job_notes` wait for the worker holding the job to move them into its history (migration 22). */
  notes_pending: ColumnType<number, number | undefined, number>;
}

/**
 * What hooks recorded for a job while a worker held it (a chat message's post_session_access, a
 * webhook's post_sensor_event): the worker's next write moves them into the history.
 */
export interface JobNotesTable {
  seq: Generated<number>;
  job_id: string;
  /** A JSON array of events, redacted. */
  events: Json;
  created_at: EpochMs;
}

/**
 * A process following a job's live feed on PostgreSQL (migration 27): the feed's notifications
 * for the job go out while a row is here. A process that stopped without removing its row costs
 * that job's notifications, nothing more; the row goes with the job.
 */
export interface JobFollowersTable {
  job_id: string;
  /** The following process's name on the broadcast (its live feed's origin). */
  follower: string;
  created_at: EpochMs;
}

/** The job's append-only history: `(job_id, seq)` is unique, so a step is recorded once. */
export interface JobEventsTable {
  job_id: string;
  seq: number;
  kind: string;
  data: Json;
  at: EpochMs;
}

export interface ApprovalsTable {
  id: string;
  tenant: string;
  job_id: string;
  /** The function's address, `<plugin>/<tool>.<function>`. */
  address: string;
  /** What the person is asked to approve, such as the call's arguments. */
  request: Json;
  status: ApprovalStatus;
  reason: string | null;
  decided_by: string | null;
  requested_at: EpochMs;
  decided_at: EpochMs | null;
  /** The call of the job it is for; one approval per call (migration 4). */
  call_id: string | null;
  /** The job's agent by address. */
  agent: string | null;
  /** A hash of what it approves: tenant, job, call, agent, function, arguments and definition. */
  binding: string | null;
  /** 1 once `approval_decided` is in the job's history. */
  recorded: Generated<number>;
  /** When the approved call was let through. */
  used_at: EpochMs | null;
}

/** Tool policy: one rule per address pattern. */
export interface PoliciesTable {
  tenant: string;
  pattern: string;
  action: PolicyAction;
  created_at: EpochMs;
}

export interface KillSwitchesTable {
  tenant: string;
  kind: SwitchKind;
  address: string;
  created_at: EpochMs;
  /** Who pulled the switch (migration 4). */
  by: string | null;
}

export interface InventoryTable {
  tenant: string;
  kind: SwitchKind;
  address: string;
  purpose: string;
  owner: string | null;
  updated_at: EpochMs;
}

/** Tenant settings by key, such as the model aliases (`model.<alias>` → `"provider:model"`). */
export interface SettingsTable {
  tenant: string;
  key: string;
  value: Json;
  updated_at: EpochMs;
}

/** What a plugin change did; see PluginChangesTable. */
export const PLUGIN_CHANGE_ACTIONS = ["install", "update", "remove"] as const;
export type PluginChangeAction = (typeof PLUGIN_CHANGE_ACTIONS)[number];

/** Every install, update and remove, in order per tenant, with the reason when one was forced. */
export interface PluginChangesTable {
  tenant: string;
  seq: number;
  plugin: string;
  action: PluginChangeAction;
  /** The version installed, updated to, or removed. */
  version: string;
  /** An update's version before it. */
  previous_version: string | null;
  forced_reason: string | null;
  at: EpochMs;
}

/**
 * What memory providers keep through MemoryContext.db (migration 5): a JSON value per
 * collection and key, per tenant and plugin. `text` is what the full-text index reads; the
 * engines keep the index themselves (an FTS5 table on SQLite, a tsvector column on PostgreSQL).
 */
export interface MemoryItemsTable {
  tenant: string;
  plugin: string;
  collection: string;
  key: string;
  value: Json;
  text: string;
  updated_at: EpochMs;
}

export const PROPOSAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** A skill an agent proposed with oz.propose_skill, for a person to review (migration 6). */
export interface SkillProposalsTable {
  id: string;
  tenant: string;
  job_id: string;
  /** The proposing agent by address. */
  agent: string;
  /** The agent's plugin, which its propose.apply function is read in. */
  plugin: string;
  /** The plugin whose skills the proposal changes (propose.into). */
  into_plugin: string;
  skill: string;
  description: string;
  body: string;
  title: string;
  why: string | null;
  /** The agent's skills.propose when it proposed: apply, repository, path, arguments. */
  settings: Json;
  status: ColumnType<ProposalStatus, ProposalStatus | undefined, ProposalStatus>;
  decided_by: string | null;
  /** Why a person rejected it. */
  reason: string | null;
  /** What the apply function returned when the pull request was opened. */
  result: Json | null;
  created_at: EpochMs;
  decided_at: EpochMs | null;
}

/** The migrations applied to this database, one row per version. */
export interface MigrationsTable {
  version: number;
  name: string;
  applied_at: EpochMs;
}

/** Model-call totals per tenant, agent, model and hour (migration 7): what budgets read. */
export interface UsageTotalsTable {
  tenant: string;
  /** The agent by address, `<plugin>/<agent>`. */
  agent: string;
  /** `provider:model`. */
  model: string;
  /** The hour the calls were recorded in, as epoch milliseconds at its start. */
  hour: EpochMs;
  /** Which of the hour's rows for the agent and model (migration 26): readers sum them. */
  slot: Generated<number>;
  input_tokens: number;
  output_tokens: number;
  model_calls: number;
  cost_usd: number;
}

/** A tenant's calls of one agent and model in one UTC day that is over, summed from its hours (migration 29). */
export interface UsageDaysTable {
  tenant: string;
  /** The day, as epoch milliseconds at its start (UTC). */
  day: EpochMs;
  agent: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  model_calls: number;
  cost_usd: number;
}

/** How far a tenant's days are summed into usage_days: every day before `through`. */
export interface UsageRollupsTable {
  tenant: string;
  /** Epoch milliseconds at the start of the first day not yet summed. */
  through: EpochMs;
}

/** A running worker, kept alive by its heartbeat; a row whose time ran out is a worker that died. */
export interface WorkersTable {
  id: string;
  host: string;
  pid: number;
  /** How many jobs it runs at once. */
  concurrency: number;
  started_at: EpochMs;
  /** By the database's clock: past it, the worker counts as gone. */
  expires_at: EpochMs;
  /** The node's oz0 version and the job format it understands (migration 15). */
  version: ColumnType<string, string | undefined, string>;
  format: ColumnType<number, number | undefined, number>;
  /** Its labels, sorted and comma-joined; '' for none. */
  labels: ColumnType<string, string | undefined, string>;
  /** The shared pool it serves; null for the plugins' own pools. */
  pool: ColumnType<string | null, string | null | undefined, string | null>;
  /** The only tenant whose jobs it takes; null for every tenant's. */
  tenant: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it drained and stopped; null while it runs (or since it was killed). */
  stopped_at: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>;
}

/** A tenant's plugin mapped to a shared pool with a node selector (migration 15). */
export interface PluginPoolsTable {
  tenant: string;
  plugin: string;
  pool: string;
  /** The labels the selector adds to what the plugin requires, sorted and comma-joined. */
  labels: string;
  created_by: string;
  created_at: EpochMs;
}

/** A plugin bundle (migration 10): its files as one gzipped tar, keyed by their digest. */
export interface BundlesTable {
  digest: string;
  archive: Uint8Array;
  files: number;
  bytes: number;
  created_at: EpochMs;
}

/**
 * What a bundle declares (migration 23): its manifest, agents and skills as JSON, as the build
 * of oz0 named `reader` read and checked them (bundles/declarations.ts).
 */
export interface BundleDeclarationsTable {
  digest: string;
  reader: string;
  declarations: string;
  created_at: EpochMs;
}

/** A person who signs in with a password (migration 11); the password is kept only as its argon2id hash. */
export interface UsersTable {
  id: string;
  name: string;
  /** The PHC string argon2id wrote (`$argon2id$v=19$m=…`), salt and parameters included. */
  password_hash: string;
  created_at: EpochMs;
  created_by: string;
}

/** A user's role in one tenant and the agents in its scope (migration 11). */
export interface MembershipsTable {
  tenant: string;
  user_id: string;
  role: string;
  /** A JSON array: agent addresses, `tag:<tag>`, or `["*"]`. */
  agents: Json;
  created_at: EpochMs;
  updated_at: EpochMs;
  updated_by: string;
}

/** An API key of a tenant (migration 11): its public id, and only a hash of its secret. */
export interface ApiKeysTable {
  id: string;
  tenant: string;
  name: string;
  role: string;
  /** A JSON array: agent addresses, `tag:<tag>`, or `["*"]`. */
  agents: Json;
  /** SHA-256 of the secret, hex. */
  secret_hash: string;
  created_at: EpochMs;
  created_by: string;
  expires_at: EpochMs | null;
  revoked_at: EpochMs | null;
  revoked_by: string | null;
}

/** A console session (migration 16): its public id, and only a hash of its secret. */
export interface SessionsTable {
  id: string;
  tenant: string;
  /** `user:<user id>` or `key:<key id>`. */
  subject: string;
  /** SHA-256 of the secret, hex. */
  secret_hash: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  ended_at: EpochMs | null;
}

/** Who changed what, and when (migration 11), in order; never a secret. */
export interface AuditLogTable {
  seq: Generated<number>;
  /** Null for a failed sign-in that named no tenant oz0 knows. */
  tenant: string | null;
  at: EpochMs;
  actor: string;
  role: string | null;
  action: string;
  target: string;
  detail: Json;
}

/** Failed sign-ins per source or per user in the current window (migration 11). */
export interface AuthThrottleTable {
  /** `source:<address>`, `user:<name>` or `key:<id>`. */
  bucket: string;
  window_start: EpochMs;
  failures: number;
}

/** A tenant's own routine (`oz0 routine add`); a plugin's come from its manifest. */
export interface RoutinesTable {
  tenant: string;
  name: string;
  /** The routine as the manifest's `routines:` entry would hold it (JSON). */
  definition: Json;
  created_by: string;
  created_at: EpochMs;
}

/** Per routine: paused or not, and how far its scheduler has looked. */
export interface RoutineStateTable {
  tenant: string;
  /** `<plugin>/<name>`, or a tenant-level routine's bare name. */
  routine: string;
  paused: Generated<number>;
  paused_by: string | null;
  /** The last tick time looked at, or for a job.ended routine the end time of the last job seen. */
  cursor: EpochMs | null;
  updated_at: EpochMs;
}

export const FIRE_CAUSES = ["schedule", "catch_up", "job_ended", "webhook", "manual", "channel"] as const;
export type FireCause = (typeof FIRE_CAUSES)[number];
export const FIRE_OUTCOMES = ["started", "queued", "skipped", "missed", "failed"] as const;
export type FireOutcome = (typeof FIRE_OUTCOMES)[number];

/** One firing of a routine; unique per (tenant, routine, key), so each tick fires once. */
export interface RoutineFiresTable {
  id: string;
  tenant: string;
  routine: string;
  /** What fired it, unique per routine: `tick:<ms>`, `job:<id>`, `webhook:<signature>`, `manual:<id>`. */
  key: string;
  cause: FireCause;
  outcome: FireOutcome;
  /** The schedule tick it was for, epoch ms. */
  tick_at: EpochMs | null;
  job_id: string | null;
  /** A queued fire's input (JSON), until its job starts. */
  input: Json | null;
  /** Why it was skipped, missed or failed. */
  detail: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

/** One version of a record a plugin's tools keep (migration 17). */
export interface RecordsTable {
  tenant: string;
  plugin: string;
  kind: string;
  key: string;
  /** 1 for the first version of the key, then one more each put. */
  version: number;
  /** Who or what the record is about, as erasure finds it. */
  subject: string | null;
  value: Json;
  created_at: EpochMs;
}

/** How long a tenant keeps the records of one plugin's kind. */
export interface RecordRetentionTable {
  tenant: string;
  plugin: string;
  kind: string;
  days: number;
  set_by: string;
  set_at: EpochMs;
}

/** A legal hold: while unreleased, what it covers is kept from retention and erasure. */
export interface RecordHoldsTable {
  id: string;
  tenant: string;
  plugin: string | null;
  kind: string | null;
  key: string | null;
  subject: string | null;
  reason: string;
  placed_by: string;
  placed_at: EpochMs;
  released_by: string | null;
  released_at: EpochMs | null;
}

/** A plugin's runtime in a tenant: the node whose lease runs it, and its status (migration 19). */
export interface PluginRuntimesTable {
  tenant: string;
  plugin: string;
  runtime: string;
  /** The node (worker ID) that holds the lease. */
  node: string;
  lease_until: EpochMs;
  /** `starting`, `running`, `restarting`, `stopped` or `failed`. */
  state: string;
  /** How many times it was restarted after dying since it last started on this config. */
  restarts: number;
  last_error: string | null;
  /** When it entered `state`. */
  since: EpochMs;
  updated_at: EpochMs;
}

/** Where a channel message is on its way from arrival to delivery (migration 18). */
export const CHANNEL_MESSAGE_STATES = ["inbound", "answering", "delivering", "delivered", "failed"] as const;
export type ChannelMessageState = (typeof CHANNEL_MESSAGE_STATES)[number];

/** A message a channel received, and its answer's delivery: the channels' outbox. */
export interface ChannelMessagesTable {
  id: string;
  tenant: string;
  plugin: string;
  channel: string;
  /** The surface's event id, else the body's SHA-256: unique per channel, so a replay is stored once. */
  event_key: string;
  /** `["<channelId>","<threadId>"]` (JSON); null for a message outside any thread (each its own job). */
  thread_key: string | null;
  /** The SurfaceEnvelope, JSON. */
  envelope: Json;
  state: ChannelMessageState;
  /** The job whose answer this row delivers. */
  job: string | null;
  /** The answer is what the job wrote after this seq. */
  after_seq: Generated<number>;
  /** The SurfaceResponse to deliver, JSON, fixed before the first attempt. */
  response: Json | null;
  attempts: Generated<number>;
  next_at: EpochMs;
  lease_owner: string | null;
  lease_until: EpochMs | null;
  last_error: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
  /**
   * What the message's sensor hooks recorded (a JSON array of events), kept until the message
   * becomes a job or a chat turn, whose history takes them (migration 22).
   */
  hook_events: ColumnType<Json | null, Json | null | undefined, Json | null>;
}

/** The conversation of a channel's thread: the chat job its messages are the turns of. */
export interface ChannelThreadsTable {
  tenant: string;
  plugin: string;
  channel: string;
  thread_key: string;
  job: string;
  updated_at: EpochMs;
}

export interface Database {
  tenants: TenantsTable;
  plugins: PluginsTable;
  plugin_grants: PluginGrantsTable;
  parts: PartsTable;
  jobs: JobsTable;
  job_events: JobEventsTable;
  approvals: ApprovalsTable;
  policies: PoliciesTable;
  kill_switches: KillSwitchesTable;
  inventory: InventoryTable;
  settings: SettingsTable;
  plugin_changes: PluginChangesTable;
  memory_items: MemoryItemsTable;
  skill_proposals: SkillProposalsTable;
  usage_totals: UsageTotalsTable;
  usage_days: UsageDaysTable;
  usage_rollups: UsageRollupsTable;
  workers: WorkersTable;
  bundles: BundlesTable;
  bundle_declarations: BundleDeclarationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  auth_throttle: AuthThrottleTable;
  routines: RoutinesTable;
  routine_state: RoutineStateTable;
  routine_fires: RoutineFiresTable;
  records: RecordsTable;
  record_retention: RecordRetentionTable;
  record_holds: RecordHoldsTable;
  plugin_pools: PluginPoolsTable;
  plugin_runtimes: PluginRuntimesTable;
  channel_messages: ChannelMessagesTable;
  job_notes: JobNotesTable;
  job_followers: JobFollowersTable;
  channel_threads: ChannelThreadsTable;
  oz0_migrations: MigrationsTable;
}

export type TenantRow = Selectable<TenantsTable>;
export type PluginRow = Selectable<PluginsTable>;
export type PluginGrantRow = Selectable<PluginGrantsTable>;
export type NewPlugin = Insertable<PluginsTable>;
export type PartRow = Selectable<PartsTable>;
export type NewPart = Insertable<PartsTable>;
export type JobRow = Selectable<JobsTable>;
export type WorkerRow = Selectable<WorkersTable>;
export type ChannelMessageRow = Selectable<ChannelMessagesTable>;
export type PluginPoolRow = Selectable<PluginPoolsTable>;
export type RoutineFireRow = Selectable<RoutineFiresTable>;
export type NewJob = Insertable<JobsTable>;
export type JobUpdate = Updateable<JobsTable>;
export type JobEventRow = Selectable<JobEventsTable>;
export type NewJobEvent = Insertable<JobEventsTable>;
export type ApprovalRow = Selectable<ApprovalsTable>;
export type NewApproval = Insertable<ApprovalsTable>;
export type PolicyRow = Selectable<PoliciesTable>;
export type KillSwitchRow = Selectable<KillSwitchesTable>;
export type InventoryRow = Selectable<InventoryTable>;
export type SettingRow = Selectable<SettingsTable>;
export type PluginChangeRow = Selectable<PluginChangesTable>;
export type SkillProposalRow = Selectable<SkillProposalsTable>;
