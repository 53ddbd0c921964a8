// The oz0 store: where tenants, installed plugins, the catalog index, jobs and their
// histories, approvals and tenant governance live.
//
// Which engine is used when:
// - PostgreSQL, through `pg`, when `OZ0_DATABASE_URL` is set (`databaseUrl`): the distributed
//   engine, for an API edge and many worker nodes sharing one database.
// - SQLite, through Node's built-in `node:sqlite`, otherwise: the embedded default, one file at
//   `$OZ0_HOME/oz0.db` (`home`, default `~/.oz0`), in WAL mode with a busy timeout so several
//   oz0 processes can share it. Open it once per process.
// - SQLite in memory (`memory: true`): the in-memory twin for tests and throwaway runs.
//
// Both engines run the same Kysely queries over one portable schema (schema.ts), and every
// open applies the migrations the database lacks (migrations/).
export type { Heartbeat, HeartbeatListener, HeartbeatStatement } from "./heartbeat.js";
export { type MigrationReport, migrate } from "./migrate.js";
export { MIGRATIONS, type Migration, type MigrationContext, type MigrationDb } from "./migrations/index.js";
export { POSTGRES_CLOCK_SQL, redactUrl } from "./postgres.js";
export {
  APPROVAL_STATUSES,
  type ApiKeysTable,
  type ApprovalRow,
  type ApprovalStatus,
  type ApprovalsTable,
  type AuditLogTable,
  type AuthThrottleTable,
  CHANNEL_MESSAGE_STATES,
  type ChannelMessageRow,
  type ChannelMessageState,
  type ChannelMessagesTable,
  type ChannelThreadsTable,
  type Database,
  DEFAULT_TENANT,
  type EpochMs,
  FIRE_CAUSES,
  FIRE_OUTCOMES,
  type FireCause,
  type FireOutcome,
  type InventoryRow,
  type InventoryTable,
  JOB_KINDS,
  JOB_MODES,
  JOB_STATUSES,
  type JobEventRow,
  type JobEventsTable,
  type JobKind,
  type JobMode,
  type JobRow,
  type JobStatus,
  type JobsTable,
  type JobUpdate,
  type Json,
  type KillSwitchesTable,
  type KillSwitchRow,
  type MembershipsTable,
  type MemoryItemsTable,
  type MigrationsTable,
  type NewApproval,
  type NewJob,
  type NewJobEvent,
  type NewPart,
  type NewPlugin,
  PART_KINDS,
  type PartKind,
  type PartRow,
  type PartsTable,
  PLUGIN_CHANGE_ACTIONS,
  type PluginChangeAction,
  type PluginChangeRow,
  type PluginChangesTable,
  type PluginGrantRow,
  type PluginGrantsTable,
  type PluginPoolRow,
  type PluginRow,
  type PluginsTable,
  POLICY_ACTIONS,
  type PoliciesTable,
  type PolicyAction,
  type PolicyRow,
  PROPOSAL_STATUSES,
  type ProposalStatus,
  type RoutineFireRow,
  type RoutineFiresTable,
  type RoutineStateTable,
  type RoutinesTable,
  type SettingRow,
  type SettingsTable,
  type SkillProposalRow,
  type SkillProposalsTable,
  SWITCH_KINDS,
  type SwitchKind,
  type TenantRow,
  type TenantsTable,
  type UsageTotalsTable,
  type UsersTable,
  type WorkerRow,
  type WorkersTable,
} from "./schema.js";
export {
  NodeSqliteDialect,
  openSqliteDatabase,
  type RunNow,
  SQLITE_BUSY_TIMEOUT_MS,
  SQLITE_CLOCK_SQL,
  SQLITE_FILE_NAME,
  SQLITE_MEMORY,
  SQLITE_PRAGMAS,
} from "./sqlite.js";
export {
  type Broadcast,
  type Listening,
  openStore,
  type Store,
  type StoreEngine,
  type StoreOptions,
  storeOptionsFromEnv,
} from "./store.js";
export {
  catalogOperation,
  endCatalogOperation,
  operationGovernanceVersion,
  seedCatalogOperation,
  TenantCache,
  type TenantVersions,
  tenantCacheOf,
} from "./tenant-cache.js";
