/** The CLI shell: --version, help, usage errors and their exit codes, stdout/stderr separation. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../../helpers/index.js';

const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;

describe('sitectl', () => {
  it('--version and -V print the package version only', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag]);
      expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('prints help with every noun on stdout when run without arguments', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(0);
    for (const noun of ['services', 'api', 'profile', 'emulator']) expect(r.stdout).toMatch(new RegExp(`^  ${noun}\\s`, 'm'));
    expect(r.stdout).toContain('--profile <name>');
    expect(r.stdout).toContain('--no-input');
    expect(r.stderr).toBe('');
  });

  it('--help on a noun and `help NOUN` list its verbs', async () => {
    const a = await runCli(['services', '--help']);
    const b = await runCli(['help', 'services']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    for (const verb of ['list', 'get', 'search', 'count', 'create', 'update', 'delete', 'clone', 'slug', 'locations', 'pricing-plans', 'booking-policies', 'booking-forms', 'categories', 'business-locations']) {
      expect(a.stdout).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
    }
    expect(b.stdout).toBe(a.stdout);
  });

  it('an unknown command or option is a usage error: exit 2 with a hint', async () => {
    const cmd = await runCli(['servics', 'list']);
    expect(cmd.code).toBe(2);
    expect(cmd.stdout).toBe('');
    expect(cmd.stderr).toBe("error: unknown command 'servics'\nhint: did you mean services?\n");

    const opt = await runCli(['services', 'list', '--colour']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toBe("error: unknown option '--colour'\nhint: run './bin/sitectl.js services --help' for usage\n");

    const missing = await runCli(['services', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: missing required argument 'id'/);
  });

  it('global flags work before and after the command', async () => {
    const before = await runCli(['--profile', 'ghost', 'services', 'count']);
    const after = await runCli(['services', 'count', '--profile', 'ghost']);
    for (const r of [before, after]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: no profile named 'ghost'/);
    }
  });
});
