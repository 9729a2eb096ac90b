import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSession, sessionsPath, writeSession } from '../../../src/core/sessions.js';

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
});
