// The ordered list of schema migrations; the runner applies the ones a database lacks.
import { initial } from "./001-initial.js";
import { pluginChanges } from "./002-plugin-changes.js";
import { jobControl } from "./003-job-control.js";
import { governance } from "./004-governance.js";
import { memory } from "./005-memory.js";
import { skillProposals } from "./006-skill-proposals.js";
import { usage } from "./007-usage.js";
import { traceContext } from "./008-trace-context.js";
import { workers } from "./009-workers.js";
import { bundles } from "./010-bundles.js";
import { identity } from "./011-identity.js";
import { approvalWithdrawn } from "./012-approval-withdrawn.js";
import { routines } from "./013-routines.js";
import { pluginGrants } from "./014-plugin-grants.js";
import { nodes } from "./015-nodes.js";
import { sessions } from "./016-sessions.js";
import { records } from "./017-records.js";
import { channels } from "./018-channels.js";
import { pluginRuntimes } from "./019-plugin-runtimes.js";
import { catalogVersion } from "./020-catalog-version.js";
import { channelCause } from "./021-channel-cause.js";
import { hookRecords } from "./022-hook-records.js";
import { bundleDeclarations } from "./023-bundle-declarations.js";
import { jobIndexes } from "./024-job-indexes.js";
import { poolMappingsCatalogVersion } from "./025-pool-mappings-catalog-version.js";
import { usageSlots } from "./026-usage-slots.js";
import { noticesWhenHeard } from "./027-notices-when-heard.js";
import { usageCountedByWrites } from "./028-usage-counted-by-writes.js";
import { usageDays } from "./029-usage-days.js";
import type { Migration } from "./types.js";

export type { Migration, MigrationContext, MigrationDb } from "./types.js";

/** Every migration, by version; append new ones, never change or reorder shipped ones. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  pluginChanges,
  jobControl,
  governance,
  memory,
  skillProposals,
  usage,
  traceContext,
  workers,
  bundles,
  identity,
  approvalWithdrawn,
  routines,
  pluginGrants,
  nodes,
  sessions,
  records,
  channels,
  pluginRuntimes,
  catalogVersion,
  channelCause,
  hookRecords,
  bundleDeclarations,
  jobIndexes,
  poolMappingsCatalogVersion,
  usageSlots,
  noticesWhenHeard,
  usageCountedByWrites,
  usageDays,
];
