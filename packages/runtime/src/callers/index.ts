// Callers: who asks (tenant, actor, role, agents in scope), and the role checks every service
// runs before it acts.
export {
  ALL_AGENTS,
  type Caller,
  hasRole,
  isRole,
  localActor,
  localAdmin,
  ROLE_ALLOWS,
  ROLES,
  type Role,
  requireRole,
} from "./caller.js";
