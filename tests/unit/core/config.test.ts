import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, readConfig, updateConfig } from '../../../src/core/config.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitectl-config-'));
  env = { SITECTL_CONFIG_DIR: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('config', () => {
  it('reads an absent file as empty', () => {
    expect(readConfig(env)).toEqual({ path: join(dir, 'config.json'), config: { profiles: {} }, exists: false });
  });

  it('writes through conf with mode 0600 and reads it back', async () => {
    await updateConfig(env, (c) => ({
      ...c,
      currentProfile: 'prod',
      profiles: { prod: { name: 'prod', baseUrl: 'https://www.wixapis.com', siteId: 's1', credential: { type: 'apiKey', apiKey: 'k1' } } },
    }));
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
    const read = readConfig(env);
    expect(read.problem).toBeUndefined();
    expect(read.config.currentProfile).toBe('prod');
    expect(read.config.profiles.prod?.credential).toEqual({ type: 'apiKey', apiKey: 'k1' });
  });

  it('reports a broken or invalid file in one line and refuses to overwrite it', async () => {
    writeFileSync(configPath(env), '{not json');
    const broken = readConfig(env);
    expect(broken.config).toEqual({ profiles: {} });
    expect(broken.problem).toMatch(/is not valid JSON/);
    expect(broken.problem).not.toContain('\n');
    await expect(updateConfig(env, (c) => c)).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(configPath(env), 'utf8')).toBe('{not json');

    writeFileSync(configPath(env), JSON.stringify({ profiles: { x: { name: 'x', baseUrl: 'ftp://nope' } } }));
    // The message is zod's English text: zod/mini has none unless the English locale is installed.
    expect(readConfig(env).problem).toMatch(/invalid at profiles\.x\.baseUrl: Invalid URL$/);
    writeFileSync(configPath(env), JSON.stringify({ profiles: { x: { name: 'x', baseUrl: 'http://h', siteId: '' } } }));
    expect(readConfig(env).problem).toMatch(/invalid at profiles\.x\.siteId: Too small: expected string to have >=1 characters$/);
  });
});
