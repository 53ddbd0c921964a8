// Identity: tenants, users and their memberships, API keys, and turning presented credentials
// into a Caller (`authenticateKey`, `authenticatePassword`) for the server.
export {
  checkPassword,
  checkUserName,
  KEY_PREFIX,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  parseDuration,
} from "./credentials.js";
export {
  type ApiKeyRequest,
  type ApiKeyStatus,
  type ApiKeyView,
  type CreatedApiKey,
  Identity,
  type IdentityOptions,
  keyNotFound,
  type MemberChange,
  type MemberRequest,
  type MemberView,
  memberNotFound,
  SESSION_TTL_MS,
  type SessionCheck,
  type SessionRequest,
  SIGN_IN_REFUSED,
  type SignIn,
  type StartedSession,
  type TenantView,
  type UserView,
} from "./identity.js";
export { checkAgentScope, parseAgentList, withinScope } from "./scope.js";
export { THROTTLE_DEFAULTS, type ThrottleOptions } from "./throttle.js";
