/**
 * Typing an API key on a real terminal (docs/architecture.md "Profiles and auth"): tmux runs the built CLI; the
 * key typed into the hidden prompt is never drawn, Enter ends the entry (no Ctrl-D), and the key is stored.
 * Skipped, with a message, only when tmux is not installed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';

if (!hasTmux) console.warn('tests/e2e/profile-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'empty' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox);
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

describe.skipIf(!hasTmux)('profile add on a terminal (tmux)', () => {
  it('asks for the key without echo; Enter ends it; the key is stored and never shown', async () => {
    term.start('key', ['profile', 'add', 'prod', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin']);
    await term.waitFor('key', /\? API key:/);
    term.send('key', '-l', emu.apiKey);
    const typed = await term.waitFor('key', /^\? API key:\n {2}\*+$/m);
    expect(typed).not.toContain(emu.apiKey);
    term.send('key', 'Enter');
    const done = await term.waitFor('key', /EXIT=\d+/);
    expect(done).toMatch(/✓ API key: received/);
    expect(done).toMatch(/Added profile 'prod'/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).not.toContain(emu.apiKey);
    const config = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.prod.credential.apiKey).toBe(emu.apiKey);
  });

  it('Esc cancels: exit 130, nothing stored', async () => {
    term.start('esc', ['profile', 'add', 'other', '--base-url', emu.url, '--site-id', emu.siteId, '--api-key-stdin']);
    await term.waitFor('esc', /\? API key:/);
    term.send('esc', '-l', 'half-typed');
    term.send('esc', 'Escape');
    const done = await term.waitFor('esc', /EXIT=\d+/);
    expect(done).toMatch(/EXIT=130/);
    const config = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.other).toBeUndefined();
  });
});
