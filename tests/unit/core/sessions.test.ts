import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSession, readSession, sessionsPath, writeSession, writeSiteSession } from '../../../src/core/sessions.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  const root = mkdtempSync(join(tmpdir(), 'sitectl-sessions-'));
  dirs.push(root);
  return { SITECTL_CONFIG_DIR: join(root, 'cfg') };
}

describe('sessions file (tokens at rest)', () => {
  it('is written 0600 in a 0700 directory whatever the umask, per profile', () => {
    const e = env();
    const old = process.umask(0);
    try {
      writeSession(e, 'a', () => ({ clientId: 'c1' }));
      writeSession(e, 'b', () => ({ clientId: 'c2' }));
    } finally {
      process.umask(old);
    }
    expect(statSync(sessionsPath(e)).mode & 0o777).toBe(0o600);
    expect(statSync(e.SITECTL_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    expect(readSession(e, 'a')).toEqual({ clientId: 'c1' });
    expect(readSession(e, 'b')).toEqual({ clientId: 'c2' });
    writeSession(e, 'a', () => undefined);
    expect(readSession(e, 'a')).toEqual({});
    expect(readSession(e, 'b')).toEqual({ clientId: 'c2' });
  });

  it('reads a broken or foreign file as signed out, and never finds inherited keys', () => {
    const e = env();
    writeSession(e, 'a', () => ({ clientId: 'c1' }));
    writeFileSync(sessionsPath(e), '{not json');
    expect(readSession(e, 'a')).toEqual({});
    writeFileSync(sessionsPath(e), JSON.stringify({ profiles: [] }));
    expect(readSession(e, 'a')).toEqual({});
    writeFileSync(sessionsPath(e), JSON.stringify({ profiles: {} }));
    expect(readSession(e, 'constructor')).toEqual({});
    expect(readSession(e, 'toString')).toEqual({});
  });

  it("uses a session for its own site only: another site's is absent (an app's credentials stay), and moves aside when that site signs in", () => {
    const e = env();
    const tokens = { accessToken: { value: 'a', expiresAt: 1 }, refreshToken: { value: 'r', role: 'member' as const } };
    const admin = { clientId: 'app', clientSecret: 's', accessToken: 't', expiresAt: 2 };
    const down = { profile: 'env', siteId: 'down', homeSiteId: 'down' };
    const up = { profile: 'env', siteId: 'up', homeSiteId: 'up' };
    writeSiteSession(e, 'env', down, (s) => ({ ...s, clientId: 'c-down', member: { tokens, id: 'm-down' } }));
    writeSession(e, 'env', (s) => ({ ...s, admin }));
    expect(readSession(e, 'env')).toMatchObject({ siteId: 'down', member: { id: 'm-down' } });
    expect(findSession(e, down)).toMatchObject({ key: 'env', session: { member: { id: 'm-down' } } });
    // Same key (the env profile's own site is whatever SITECTL_SITE_ID says), another site: absent but the app's.
    expect(findSession(e, up)).toEqual({ key: 'env', session: { admin } });
    expect(findSession(e, { profile: 'env' }).session.member).toBeUndefined();
    // Uptown signs in: Downtown's session moves to env@down and is still found there; the app's stays.
    writeSiteSession(e, 'env', up, (s) => ({ ...s, clientId: 'c-up', member: { tokens, id: 'm-up' } }));
    expect(readSession(e, 'env')).toMatchObject({ siteId: 'up', admin, member: { id: 'm-up' } });
    expect(readSession(e, 'env@down')).toMatchObject({ siteId: 'down', clientId: 'c-down', member: { id: 'm-down' } });
    expect(readSession(e, 'env@down').admin).toBeUndefined();
    expect(findSession(e, down)).toMatchObject({ key: 'env@down', session: { member: { id: 'm-down' } } });
    expect(findSession(e, up)).toMatchObject({ key: 'env', session: { member: { id: 'm-up' } } });
  });

  it('takes a session without a recorded site as the site its key names: the plain name for the profile\'s own site', () => {
    const e = env();
    const member = { tokens: { accessToken: { value: 'a', expiresAt: 1 }, refreshToken: { value: 'r', role: 'member' as const } }, id: 'm' };
    writeSession(e, 'prod', () => ({ clientId: 'c', member }));
    writeSession(e, 'prod@up', () => ({ clientId: 'c2', member }));
    expect(findSession(e, { profile: 'prod', siteId: 'down', homeSiteId: 'down' })).toMatchObject({ key: 'prod', session: { clientId: 'c' } });
    expect(findSession(e, { profile: 'prod', siteId: 'up', homeSiteId: 'down' })).toMatchObject({ key: 'prod@up', session: { clientId: 'c2' } });
    expect(findSession(e, { profile: 'prod', siteId: 'mid', homeSiteId: 'down' })).toEqual({ key: 'prod@mid', session: {} });
    // A session written with no site chosen is not another site's.
    writeSiteSession(e, 'solo', { profile: 'solo' }, () => ({ clientId: 'c', member }));
    expect(readSession(e, 'solo').siteId).toBeNull();
    expect(findSession(e, { profile: 'solo', siteId: 'x', homeSiteId: 'x' }).session).toEqual({});
  });
});
