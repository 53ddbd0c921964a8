// The catalog: installing plugins into tenants, listing their parts by address, and the owner
// check every entry point runs before it acts on a part's name.
export {
  Catalog,
  type CatalogOptions,
  type ChangeOptions,
  type ChangeReport,
  type GrantReport,
  type PluginSource,
} from "./catalog.js";
export type { ReferenceProblem } from "./checks.js";
export { DEFAULTS_SETTING, type DefaultPluginOutcome, defaultPluginDirs } from "./defaults.js";
export { listWords, nameClashError, toolClashError } from "./errors.js";
export {
  type GrantReader,
  type GrantTarget,
  grantRefusal,
  reachRefusal,
  readGrant,
  type TenantGrant,
  tenantGrantRefusal,
  usesAddresses,
} from "./grants.js";
export type { CatalogEntry, GrantView, PluginChange, PluginDetail, PluginSummary } from "./reports.js";
export type { PartRef, ResolvedPart, ResolveKind, ResolveOptions } from "./resolve.js";
export type { StrandedJob } from "./stranded-jobs.js";
export { checkTenantName, lockTenant, requireTenant } from "./tenants.js";
