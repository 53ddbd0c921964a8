// The credentials themselves: API keys (made, read back and checked) and password hashes. Key
// secrets and passwords pass through here and go nowhere else: the store keeps hashes only.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Algorithm } from "@node-rs/argon2";
import { Oz0Error } from "@oz0/sdk";

/** Every key starts so: a secret scanner (and a person) can tell an oz0 key from other text. */
export const KEY_PREFIX = "oz0k";

/** 32 random bytes: 256 bits, so the secret cannot be guessed or searched for. */
const SECRET_BYTES = 32;
/** 8 random bytes of public id: unique enough to look a key up, and says nothing of the secret. */
const ID_BYTES = 8;
const KEY_FORM = /^oz0k_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewKey {
  /** The public id, stored and listed. */
  readonly id: string;
  /** `oz0k_<id>_<secret>`: shown once, never stored. */
  readonly key: string;
  readonly secretHash: string;
}

/** Makes a key: a public id for lookup and a random secret, of which only the hash is kept. */
export function newKey(): NewKey {
  const id = randomBytes(ID_BYTES).toString("hex");
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  return { id, key: `${KEY_PREFIX}_${id}_${secret}`, secretHash: hashSecret(secret) };
}

/** The id and secret of a presented key, or undefined for text that is no oz0 key. */
export function readKey(presented: string): { id: string; secret: string } | undefined {
  const match = KEY_FORM.exec(presented.trim());
  if (match === null) return undefined;
  return { id: match[1]!, secret: match[2]! };
}

/**
 * SHA-256, unsalted and fast, is enough for a key's secret, unlike for a password: the secret
 * is 256 random bits, so nobody holding the hash can search the secret space, salt or no salt,
 * and a slow hash would only slow every request the server authenticates.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Compares a presented secret with a stored hash in time that does not depend on where they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** A hash compared when the key id is unknown, so an unknown key costs what a wrong secret does. */
export const NO_KEY_HASH = hashSecret("no key has this secret");

/** `Algorithm.Argon2id`: the package's enum is a const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm.Argon2id;

/** The native argon2 library, loaded by the first password hashed or checked, not by every command. */
function argon2(): Promise<typeof import("@node-rs/argon2")> {
  return import("@node-rs/argon2");
}

/** Passwords shorter than this are refused: argon2 slows a search, it cannot make "1234" safe. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer than any password manager writes; keeps a megabyte "password" from costing a hash. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Refuses a password that is too short or too long, without ever repeating it. */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `the password is ${password.length} characters long; it takes at least ${MIN_PASSWORD_LENGTH}.`,
      { data: { issues: [{ path: "password", message: `at least ${MIN_PASSWORD_LENGTH} characters` }] } },
    );
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `the password is ${password.length} characters long; it takes at most ${MAX_PASSWORD_LENGTH}.`,
      { data: { issues: [{ path: "password", message: `at most ${MAX_PASSWORD_LENGTH} characters` }] } },
    );
  }
}

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum),
 * and a random salt per hash; the PHC string keeps both, so they can rise later.
 */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await argon2();
  return hash(password, { algorithm: ARGON2ID });
}

/** Whether `password` is the one `stored` was made from; false for anything malformed. */
export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** What an unknown user's sign-in is checked against, so it costs what a wrong password does. */
let dummyHash: Promise<string> | undefined;
export function noUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

const USER_NAME = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** User names: lowercase, up to 64 characters, so an email address serves as one. */
export function checkUserName(name: string): void {
  if (USER_NAME.test(name)) return;
  throw new Oz0Error(
    "INVALID_NAME",
    `user name '${name.length > 80 ? `${name.slice(0, 80)}…` : name}' must be 1 to 64 lowercase letters, digits, '.', '_', '@' and '-', starting with a letter or digit.`,
    { data: { kind: "user", name } },
  );
}

const DURATION = /^(\d+)(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const MAX_DURATION_MS = 3650 * UNIT_MS.d;

/**
 * Reads a duration such as `90m`, `12h`, `30d` or `8w` into milliseconds.
 * @example parseDuration("30d", "--expires") // 2592000000
 */
export function parseDuration(text: string, said: string): number {
  const match = DURATION.exec(text.trim());
  const ms = match === null ? Number.NaN : Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_DURATION_MS) {
    throw new Oz0Error(
      "INVALID_INPUT",
      `${said} ${text}: it takes a whole number and a unit, m (minutes), h (hours), d (days) or w (weeks), such as 30d, up to 3650d.`,
      { data: { issues: [{ path: said, message: "a duration such as 90m, 12h, 30d or 8w" }] } },
    );
  }
  return ms;
}

/** Every console session's token starts so, as a key starts with `oz0k`. */
export const SESSION_PREFIX = "oz0s";
const SESSION_FORM = /^oz0s_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** Makes a session token, `oz0s_<id>_<secret>`, of which only the hash of the secret is kept. */
export function newSessionToken(): NewKey {
  const id = randomBytes(ID_BYTES).toString("hex");
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  return { id, key: `${SESSION_PREFIX}_${id}_${secret}`, secretHash: hashSecret(secret) };
}

/** The id and secret of a presented session token, or undefined for text that is none. */
export function readSessionToken(presented: string): { id: string; secret: string } | undefined {
  const match = SESSION_FORM.exec(presented.trim());
  if (match === null) return undefined;
  return { id: match[1]!, secret: match[2]! };
}

/**
 * The CSRF token of a session: derived from its secret, so it needs no storage and only the
 * holder of the session (whose cookie a page's script cannot read) can know it.
 */
export function csrfTokenOf(secret: string): string {
  return createHash("sha256").update(`oz0 csrf\u0000${secret}`, "utf8").digest("base64url");
}

/** Compares two tokens in time that does not depend on where they differ. */
export function tokensMatch(presented: string, expected: string): boolean {
  const a = Buffer.from(hashSecret(presented), "hex");
  const b = Buffer.from(hashSecret(expected), "hex");
  return timingSafeEqual(a, b);
}
