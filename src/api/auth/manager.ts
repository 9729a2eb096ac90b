/**
 * The token manager of docs/sign-in.md "Tokens": one visitor or member token pair for one OAuth client.
 *
 * - Visitor tokens are reused while the access token is valid, renewed with the refresh token, else new
 *   anonymous tokens are fetched.
 * - Member tokens are refreshed before they expire (`marginSec`, default 60 s); a refused member refresh ends
 *   the session (the pair is cleared, {@link SessionExpiredError}).
 * - The session counts as logged in only when the refresh token's role is `member`.
 * - An access token is expired when its expiry is before now; expiries are epoch seconds.
 * - Logout clears both tokens to empty with role `none`.
 *
 * The clock is injected (`now()` in ms) so tests move time; `save` is called after every change.
 */
import { TokenEndpointError, type TokenEndpoint, type TokenReply } from './tokens.js';

export type TokenRole = 'none' | 'visitor' | 'member';

/** An access token and a refresh token (docs/wire.md §23). */
export interface TokenPair {
  accessToken: { value: string; expiresAt: number };
  refreshToken: { value: string; role: TokenRole };
}

/** The cleared pair (logout). */
export const EMPTY_TOKENS: TokenPair = { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } };

/** A member session that can no longer be refreshed: sign in again. */
export class SessionExpiredError extends Error {
  constructor(cause: unknown) {
    super('the signed-in session has expired or was revoked', { cause });
    this.name = 'SessionExpiredError';
  }
}

export interface TokenManagerOptions {
  endpoint: Pick<TokenEndpoint, 'token'>;
  clientId: string;
  /** The pair to start from (a stored one), default empty. */
  tokens?: TokenPair;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Member tokens are refreshed this many seconds before they expire (default 60). */
  marginSec?: number;
  /** Called with the new pair after every change (to store it). */
  save?: (tokens: TokenPair) => void | Promise<void>;
}

/** The pair of a token reply, the role given by the grant that produced it. */
export function pairOf(reply: TokenReply, role: TokenRole, nowMs: number, previousRefresh?: string): TokenPair {
  return {
    accessToken: { value: reply.access_token, expiresAt: Math.floor(nowMs / 1000) + reply.expires_in },
    // The SDK keeps its refresh token when the answer carries none; a rotating server sends a new one.
    refreshToken: { value: reply.refresh_token ?? previousRefresh ?? '', role },
  };
}

/** True when the access token's expiry (epoch seconds) is before now (docs/sign-in.md "Tokens"). */
export function isExpired(token: { expiresAt: number }, nowMs: number): boolean {
  return token.expiresAt * 1000 < nowMs;
}

/** See the module comment. */
export class TokenManager {
  private pair: TokenPair;
  private readonly now: () => number;
  private readonly margin: number;

  constructor(private readonly opts: TokenManagerOptions) {
    this.pair = opts.tokens ?? EMPTY_TOKENS;
    this.now = opts.now ?? Date.now;
    this.margin = opts.marginSec ?? 60;
  }

  /** The current pair (a copy). */
  get tokens(): TokenPair {
    return structuredClone(this.pair);
  }

  get role(): TokenRole {
    return this.pair.refreshToken.role;
  }

  /** Logged in only when the refresh token's role is member (docs/sign-in.md "Tokens"). */
  isLoggedIn(): boolean {
    return this.pair.refreshToken.role === 'member';
  }

  private async set(pair: TokenPair): Promise<void> {
    this.pair = pair;
    await this.opts.save?.(structuredClone(pair));
  }

  /** Stores member tokens from a code exchange, direct login or device grant. */
  async setMemberTokens(reply: TokenReply): Promise<void> {
    await this.set(pairOf(reply, 'member', this.now()));
  }

  /**
   * Visitor tokens: the current pair while valid, else renewed with its refresh token, else new anonymous
   * tokens (a refused renewal falls back to anonymous, as the SDK does).
   * @throws TokenEndpointError when the anonymous grant itself fails
   */
  async visitorTokens(signal?: AbortSignal): Promise<TokenPair> {
    const p = this.pair;
    if (p.refreshToken.role === 'visitor' && p.accessToken.value && !isExpired(p.accessToken, this.now())) return this.tokens;
    if (p.refreshToken.role === 'visitor' && p.refreshToken.value) {
      try {
        const reply = await this.opts.endpoint.token({ grantType: 'refresh_token', clientId: this.opts.clientId, refreshToken: p.refreshToken.value }, signal);
        await this.set(pairOf(reply, 'visitor', this.now(), p.refreshToken.value));
        return this.tokens;
      } catch (err) {
        if (!(err instanceof TokenEndpointError)) throw err;
      }
    }
    const reply = await this.opts.endpoint.token({ grantType: 'anonymous', clientId: this.opts.clientId }, signal);
    await this.set(pairOf(reply, 'visitor', this.now()));
    return this.tokens;
  }

  /**
   * A valid access token: a member's, refreshed when it expires within the margin; otherwise a visitor's.
   * @throws SessionExpiredError when a member refresh is refused (the pair is cleared first);
   *   TokenEndpointError when visitor tokens cannot be had
   */
  async accessToken(signal?: AbortSignal): Promise<string> {
    const p = this.pair;
    if (p.refreshToken.role !== 'member') return (await this.visitorTokens(signal)).accessToken.value;
    if (p.accessToken.value && p.accessToken.expiresAt * 1000 - this.margin * 1000 > this.now()) return p.accessToken.value;
    await this.refreshMember(signal);
    return this.pair.accessToken.value;
  }

  /**
   * Renews member tokens with the refresh token now (rotation: the answer's refresh token replaces it).
   * @throws SessionExpiredError when refused; the fetch error otherwise (the pair is kept)
   */
  async refreshMember(signal?: AbortSignal): Promise<void> {
    const p = this.pair;
    if (p.refreshToken.role !== 'member' || !p.refreshToken.value) throw new SessionExpiredError(undefined);
    try {
      const reply = await this.opts.endpoint.token({ grantType: 'refresh_token', clientId: this.opts.clientId, refreshToken: p.refreshToken.value }, signal);
      await this.set(pairOf(reply, 'member', this.now(), p.refreshToken.value));
    } catch (err) {
      if (err instanceof TokenEndpointError && err.status >= 400 && err.status < 500) {
        await this.set(EMPTY_TOKENS);
        throw new SessionExpiredError(err);
      }
      throw err;
    }
  }

  /** Logout: both tokens empty, role none (docs/sign-in.md "Tokens"). */
  async logout(): Promise<void> {
    await this.set(EMPTY_TOKENS);
  }
}
