import { describe, expect, it } from 'vitest';
import { EMPTY_TOKENS, isExpired, SessionExpiredError, TokenManager, type TokenPair } from '../../../../src/api/auth/manager.js';
import { TokenEndpointError, type TokenReply, type TokenRequest } from '../../../../src/api/auth/tokens.js';

/** A fake endpoint: records grants, answers numbered tokens, refuses refresh tokens listed in `refused`. */
function fakeEndpoint() {
  const calls: TokenRequest[] = [];
  const refused = new Set<string>();
  let n = 0;
  return {
    calls,
    refused,
    async token(req: TokenRequest): Promise<TokenReply> {
      calls.push(req);
      if ('grantType' in req && req.grantType === 'refresh_token' && refused.has(req.refreshToken)) throw new TokenEndpointError(400, 'Bad Request', 'r1', '{"error":"invalid_grant"}', 'invalid_grant');
      n++;
      return { access_token: `at${n}`, refresh_token: `rt${n}`, expires_in: 3600 };
    },
  };
}

describe('token manager (docs/sign-in.md "Tokens")', () => {
  it('reuses visitor tokens while valid, renews with the refresh token, else fetches anonymous ones', async () => {
    let now = 1_000_000_000_000;
    const ep = fakeEndpoint();
    const saved: TokenPair[] = [];
    const m = new TokenManager({ endpoint: ep, clientId: 'c', now: () => now, save: (t) => void saved.push(t) });
    expect(m.role).toBe('none');
    expect(await m.accessToken()).toBe('at1');
    expect(ep.calls.map((c) => ('grantType' in c ? c.grantType : c.grant_type))).toEqual(['anonymous']);
    expect(m.role).toBe('visitor');
    expect(m.isLoggedIn()).toBe(false);
    now += 3599_000;
    expect(await m.accessToken()).toBe('at1');
    expect(ep.calls).toHaveLength(1);
    now += 2_000; // expired
    expect(await m.accessToken()).toBe('at2');
    expect(ep.calls[1]).toEqual({ grantType: 'refresh_token', clientId: 'c', refreshToken: 'rt1' });
    ep.refused.add('rt2');
    now += 3601_000;
    expect(await m.accessToken()).toBe('at3');
    expect(ep.calls.map((c) => ('grantType' in c ? c.grantType : c.grant_type))).toEqual(['anonymous', 'refresh_token', 'refresh_token', 'anonymous']);
    expect(saved.at(-1)?.refreshToken).toEqual({ value: 'rt3', role: 'visitor' });
  });

  it('refreshes member tokens before they expire and rotates the refresh token', async () => {
    let now = 1_000_000_000_000;
    const ep = fakeEndpoint();
    const m = new TokenManager({ endpoint: ep, clientId: 'c', now: () => now, marginSec: 60 });
    await m.setMemberTokens({ access_token: 'member-at', refresh_token: 'member-rt', expires_in: 3600 });
    expect(m.isLoggedIn()).toBe(true);
    now += 3500_000; // 100 s left
    expect(await m.accessToken()).toBe('member-at');
    now += 50_000; // 50 s left: inside the margin
    expect(await m.accessToken()).toBe('at1');
    expect(ep.calls).toEqual([{ grantType: 'refresh_token', clientId: 'c', refreshToken: 'member-rt' }]);
    expect(m.tokens.refreshToken).toEqual({ value: 'rt1', role: 'member' });
  });

  it('ends a member session whose refresh is refused', async () => {
    const now = 1_000_000_000_000;
    const ep = fakeEndpoint();
    const m = new TokenManager({ endpoint: ep, clientId: 'c', now: () => now, tokens: { accessToken: { value: 'old', expiresAt: now / 1000 - 1 }, refreshToken: { value: 'gone', role: 'member' } } });
    ep.refused.add('gone');
    await expect(m.accessToken()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(m.tokens).toEqual(EMPTY_TOKENS);
    expect(m.isLoggedIn()).toBe(false);
  });

  it('logs out to empty tokens with role none', async () => {
    const m = new TokenManager({ endpoint: fakeEndpoint(), clientId: 'c' });
    await m.setMemberTokens({ access_token: 'a', refresh_token: 'r', expires_in: 10 });
    await m.logout();
    expect(m.tokens).toEqual({ accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } });
  });

  it('counts a token expired only when its expiry is before now', () => {
    expect(isExpired({ expiresAt: 100 }, 100_000)).toBe(false);
    expect(isExpired({ expiresAt: 100 }, 100_001)).toBe(true);
  });

  it('words a failed token call as the SDK does', () => {
    const e = new TokenEndpointError(400, 'Bad Request', 'req-1', '{"error":"invalid_grant"}', 'invalid_grant');
    expect(e.message).toBe('Failed to fetch tokens from OAuth API: Bad Request. request id: req-1. Response: {"error":"invalid_grant"}');
  });
});
