/**
 * PKCE for the sign-in flow (docs/wire.md §23; RFC 7636): a random verifier of 43 to 128
 * characters drawn from letters, digits and `- . _ ~`, its S256 challenge (SHA-256, base64url without
 * padding), and a random `state`.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';

/** The characters a verifier is drawn from (RFC 7636 section 4.1 "unreserved"). */
export const VERIFIER_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
/** Default verifier length (docs/wire.md §23). */
export const DEFAULT_VERIFIER_LENGTH = 43;
export const MIN_VERIFIER_LENGTH = 43;
export const MAX_VERIFIER_LENGTH = 128;

/** The error of a verifier length out of range, as the spec words it. */
export const LENGTH_ERROR = 'Expected a length between 43 and 128';

/**
 * A random code verifier (docs/wire.md §23).
 * @param length 43 to 128 (default 43)
 * @throws RangeError 'Expected a length between 43 and 128' for any other length
 */
export function createVerifier(length: number = DEFAULT_VERIFIER_LENGTH): string {
  if (!Number.isInteger(length) || length < MIN_VERIFIER_LENGTH || length > MAX_VERIFIER_LENGTH) throw new RangeError(LENGTH_ERROR);
  let out = '';
  for (let i = 0; i < length; i++) out += VERIFIER_CHARSET[randomInt(VERIFIER_CHARSET.length)];
  return out;
}

/** True when `verifier` is 43 to 128 characters of the verifier alphabet. */
export function isValidVerifier(verifier: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);
}

/**
 * The S256 challenge of a verifier: base64url(SHA-256(ascii(verifier))) without padding (RFC 7636 section 4.2).
 * @throws RangeError 'Expected a length between 43 and 128' for a verifier of another length
 */
export function challengeOf(verifier: string): string {
  if (verifier.length < MIN_VERIFIER_LENGTH || verifier.length > MAX_VERIFIER_LENGTH) throw new RangeError(LENGTH_ERROR);
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A random `state` for one authorization request (128 bits, base64url). */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}

/** Everything one authorization request needs: verifier, challenge (method S256) and state. */
export interface PkceData {
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256';
  state: string;
}

/**
 * New PKCE data for one sign-in (what the SDK's `generateOAuthData` makes).
 * @throws RangeError for a length outside 43..128
 */
export function createPkce(length: number = DEFAULT_VERIFIER_LENGTH): PkceData {
  const codeVerifier = createVerifier(length);
  return { codeVerifier, codeChallenge: challengeOf(codeVerifier), codeChallengeMethod: 'S256', state: createState() };
}
