/**
 * The shapes of the emulator's OAuth state (state.ts; docs/sign-in.md): what a signed token says, apps, sign-in
 * policies, authorization requests, codes, device grants and pending verifications; the lifetimes of each; and
 * the token endpoint's refusal. Imports nothing of the emulator, so the routes and the identity rules share it
 * without loading the state.
 */
import { timingSafeEqual } from 'node:crypto';

export const ACCESS_TTL_SEC = 14_400;
export const REFRESH_TTL_SEC = 30 * 86_400;
export const SESSION_TOKEN_TTL_SEC = 600;
export const CODE_TTL_MS = 60_000;
export const DEVICE_TTL_SEC = 600;
export const DEVICE_INTERVAL_SEC = 2;
export const STATE_TOKEN_TTL_MS = 15 * 60_000;
/** Wrong e-mail codes a pending verification takes; the last one ends it (the sign-in starts again). */
export const MAX_CODE_ATTEMPTS = 5;

export type TokenRole = 'visitor' | 'member' | 'admin';

/** What a signed token says. */
export interface TokenClaims {
  /** access, refresh or session (a session token of a direct login: exchanged for one code, 10 minutes). */
  typ: 'access' | 'refresh' | 'session';
  role: TokenRole;
  site: string;
  /** The member id, the visitor id or the app's client id. */
  sub: string;
  cid: string;
  /** A session groups the tokens of one sign-in; revoking it ends them all. */
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface OAuthApp {
  clientId: string;
  siteId: string;
  name: string;
  /** SHA-256 hex of the secret; absent for the default (public) app. */
  secretHash?: string;
  /** Exact redirect URIs; the default app admits loopback URIs on any port instead. */
  redirectUris: string[];
  default: boolean;
}

/**
 * Server login states the emulator answers only when told to (the SDK's StateType has them; no rule of the
 * emulator leads to them): a client's handling of them can be tested.
 */
export const FORCED_STATES = ['STATUS_CHECK', 'UNKNOWN_STATE'] as const;
export type ForcedState = (typeof FORCED_STATES)[number];

/** A sign-in policy of a site (settable on the control plane). */
export interface SignInPolicy {
  requireOwnerApproval: boolean;
  requireEmailVerification: boolean;
  requireCaptcha: boolean;
  /** When set, loginV2 and registerV2 answer this state (no tokens) once their own checks pass. */
  answerState: ForcedState | null;
}
export const DEFAULT_POLICY: SignInPolicy = { requireOwnerApproval: false, requireEmailVerification: false, requireCaptcha: false, answerState: null };
/** The captcha token the emulator accepts when a site requires a captcha (any other is invalid). */
export const EMULATOR_CAPTCHA_TOKEN = 'emulator-captcha-ok';

/** An authorization request made by a redirect session, waiting for the hosted page. */
export interface AuthRequest {
  id: string;
  site: string;
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  state?: string;
  responseMode: 'query' | 'fragment' | 'web_message';
  prompt: 'login' | 'none';
  sessionToken?: string;
  expiresAt: number;
}

/** An authorization code waiting to be redeemed (60 s, single use). */
export interface CodeGrant {
  site: string;
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  memberId: string;
  /** The session the tokens issued for this code belong to (chosen with the code, so a replay can end it). */
  sid: string;
  expiresAt: number;
}

export interface DeviceGrant {
  deviceCode: string;
  userCode: string;
  site: string;
  clientId: string;
  expiresAt: number;
  interval: number;
  lastPoll: number;
  status: 'pending' | 'approved' | 'denied' | 'done';
  memberId?: string;
}

/** A sign-in waiting for a code: the e-mail's (REQUIRE_EMAIL_VERIFICATION) or a second factor's (MFA_CHALLENGE). */
export interface PendingVerification {
  stateToken: string;
  site: string;
  identityId: string;
  code: string;
  expiresAt: number;
  /** Wrong codes tried so far (see {@link MAX_CODE_ATTEMPTS}). */
  attempts?: number;
  /** The factor whose code it waits for: SMS or CALL (a second factor); absent: EMAIL. */
  factor?: 'SMS' | 'CALL';
}

/** True when two secrets are equal, compared in constant time (their lengths are not secret). */
export function same(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** A token endpoint refusal (RFC 6749 section 5.2): `{error, error_description}`, 400 unless said. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}
