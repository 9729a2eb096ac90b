import { describe, expect, it } from 'vitest';
import { challengeOf, createPkce, createState, createVerifier, isValidVerifier, LENGTH_ERROR } from '../../../../src/api/auth/pkce.js';

describe('PKCE (docs/wire.md §23)', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('computes the challenge of a 128-character verifier without padding', () => {
    const v = 'a'.repeat(128);
    // openssl dgst -sha256 -binary | base64url, no '='
    expect(challengeOf(v)).toBe('aDbPE7rEAOkQUHHNavRwhN-srU5eMCyUv-0k4BOvtz4');
    expect(challengeOf(v)).not.toContain('=');
  });

  it('draws verifiers of 43 characters by default from letters, digits and - . _ ~', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const v = createVerifier();
      expect(v).toHaveLength(43);
      expect(v).toMatch(/^[A-Za-z0-9._~-]+$/);
      seen.add(v);
    }
    expect(seen.size).toBe(200);
    expect(createVerifier(128)).toHaveLength(128);
    expect(isValidVerifier(createVerifier(100))).toBe(true);
  });

  it.each([0, 42, 129, 43.5])('refuses a length of %s with the spec message', (n) => {
    expect(() => createVerifier(n)).toThrow(LENGTH_ERROR);
    expect(LENGTH_ERROR).toBe('Expected a length between 43 and 128');
  });

  it('refuses to derive a challenge from a short verifier', () => {
    expect(() => challengeOf('short')).toThrow('Expected a length between 43 and 128');
  });

  it('makes a complete request with a random state', () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.codeChallenge).toBe(challengeOf(a.codeVerifier));
    expect(a.codeChallengeMethod).toBe('S256');
    expect(a.state).not.toBe(b.state);
    expect(createState()).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
