/**
 * `sitectl completion bash|zsh|fish` (docs/architecture.md "Output and interaction"): the generated scripts are
 * loaded into the real shells and asked what they would complete. bash always runs; zsh and fish run when
 * installed (.ci/run installs them) and are otherwise skipped with a message.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nounNames } from '../../../src/program.js';
import { BookingStatusValues } from '../../../src/api/schemas/booking.js';
import { cliEnv, createCliSandbox, runInProcess, type CliSandbox } from '../../helpers/index.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const hasZsh = has('zsh');
const hasFish = has('fish');
if (!hasZsh || !hasFish) console.warn(`completion.test.ts: skipping ${[!hasZsh && 'zsh', !hasFish && 'fish'].filter(Boolean).join(' and ')} (not installed)`);

let sandbox: CliSandbox;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  sandbox = createCliSandbox();
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runInProcess(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = join(sandbox.root, `completion.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});
afterAll(() => sandbox?.cleanup());

function shell(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: sandbox.root } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** What bash completes for the words typed so far (the last one is being completed). */
function bashComplete(...words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = shell('bash', ['-c', `source '${scripts.bash}'; COMP_WORDS=(sitectl ${quoted}); COMP_CWORD=${words.length}; _sitectl; printf '%s\\n' "\${COMPREPLY[@]}"`]);
  return out.split('\n').filter(Boolean);
}

describe('completion scripts', () => {
  it('an unknown shell is exit 2 naming the choices', async () => {
    const r = await runInProcess(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown shell 'tcsh'\nhint: use one of bash, zsh, fish\n$/);
  });

  it('bash: nouns, verbs after aliases and global flags, flags of the verb', () => {
    // Every noun of the program, in its order, then `completion`.
    expect(nounNames().slice(0, 4)).toEqual(['services', 'availability', 'bookings', 'msb']);
    expect(bashComplete('')).toEqual([...nounNames(), 'completion']);
    expect(bashComplete('serv')).toEqual(['services']);
    expect(bashComplete('--profile', 'prod', 'services', 'pricing-plans', '')).toEqual(['add', 'remove']);
    expect(bashComplete('service', 'ls', '--wh')).toEqual(['--where']);
    expect(bashComplete('services', 'update', '--dry')).toEqual(['--dry-run']);
    expect(bashComplete('emulator', 'cl')).toEqual(['clock']);
  });

  it.skipIf(!hasZsh)('zsh: the same tree through _describe', () => {
    const run = (...words: string[]) =>
      shell('zsh', [
        '-c',
        `compdef() { :; }; source '${scripts.zsh}'
_describe() { local -a arr names; arr=("\${(@P)4}"); names=("\${(@)arr%%:*}"); print -r -- "$2 \${names[*]}"; }
_files() { print files; }
words=(sitectl ${words.map((w) => `'${w}'`).join(' ')}); CURRENT=\${#words}; _sitectl`,
      ]).trim();
    expect(run('')).toBe(`commands ${[...nounNames(), 'completion'].join(' ')}`);
    expect(run('--profile', 'prod', 'service', 'pricing-plans', '')).toBe('commands add remove');
    expect(run('services', 'list', '--filter', '')).toBe('files');
    expect(run('services', 'ls', '--')).toMatch(/^options .*--where/);
  });

  it.skipIf(!hasFish)('fish: complete -C lists candidates with descriptions', () => {
    const run = (line: string) => shell('fish', ['-c', `source '${scripts.fish}'; complete -C '${line}'`]);
    expect(run('sitectl serv')).toMatch(/^services\tList, inspect/m);
    expect(run('sitectl services pricing-plans ').split('\n').filter(Boolean).map((l) => l.split('\t')[0])).toEqual(['add', 'remove']);
    expect(run('sitectl --profile x emulator cl')).toMatch(/^clock\t/m);
  });

  it('completes the name it was invoked as (./bin/sitectl.js) as well as sitectl', async () => {
    const scriptOf = async (sh: string) => {
      const r = await runInProcess(['completion', sh], { bin: './bin/sitectl.js' });
      expect(r.code, r.stderr).toBe(0);
      const file = join(sandbox.root, `invoked.${sh}`);
      writeFileSync(file, r.stdout);
      return file;
    };
    // bash looks a path's compspec up by the part after the last slash.
    const bash = await scriptOf('bash');
    expect(shell('bash', ['-c', `source '${bash}'; complete -p sitectl.js; complete -p sitectl`])).toBe(
      'complete -o default -F _sitectl sitectl.js\ncomplete -o default -F _sitectl sitectl\n',
    );
    expect(shell('bash', ['-c', `source '${bash}'; COMP_WORDS=(./bin/sitectl.js serv); COMP_CWORD=1; _sitectl; printf '%s\\n' "\${COMPREPLY[@]}"`]).trim()).toBe('services');
    if (hasZsh) {
      const zsh = await scriptOf('zsh');
      expect(shell('zsh', ['-c', `compdef() { print -r -- "$*"; }; source '${zsh}'`]).trim()).toBe('_sitectl sitectl sitectl.js');
    }
    if (hasFish) {
      const fish = await scriptOf('fish');
      expect(shell('fish', ['-c', `source '${fish}'; complete -C './bin/sitectl.js serv'`])).toMatch(/^services\tList, inspect/m);
    }
  });

  it('completes the values of enumerated flags (a comma-separated list after its last comma), of browse, and profile names', async () => {
    const statuses = [...BookingStatusValues];
    expect(bashComplete('bookings', 'list', '--status', '')).toEqual(statuses);
    expect(bashComplete('booking', 'ls', '--status', 'CONF')).toEqual(['CONFIRMED']);
    expect(bashComplete('bookings', 'list', '--status', 'CONFIRMED,PEN')).toEqual(['CONFIRMED,PENDING']);
    expect(bashComplete('members', 'list', '--status', '')).not.toContain('UNKNOWN');
    expect(bashComplete('services', 'create', '--type', 'CL')).toEqual(['CLASS']);
    expect(bashComplete('browse', 'st')).toEqual(['staff']);
    expect(bashComplete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // A flag without a set of values still completes file names.
    expect(bashComplete('services', 'list', '--filter', join(sandbox.root, 'completion.b'))).toEqual([join(sandbox.root, 'completion.bash')]);

    // Profile names come from the program itself, as typed on the line (the second column of `profile list`).
    const made = await runInProcess(['profile', 'add', 'prod-eu', '--site-id', 'site-1', '--api-key-stdin', '--base-url', 'http://127.0.0.1:9'], { sandbox, input: 'key-123' });
    expect(made.code, made.stderr).toBe(0);
    const bin = join(sandbox.root, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(resolve('bin/sitectl.js'), join(bin, 'sitectl'));
    const env = { ...cliEnv(sandbox), PATH: `${bin}:${process.env.PATH}` };
    const typed = spawnSync('bash', ['-c', `source '${scripts.bash}'; COMP_WORDS=(sitectl --profile prod); COMP_CWORD=2; _sitectl; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', env, cwd: sandbox.root });
    expect(typed.stdout.trim(), typed.stderr).toBe('prod-eu');
  });

  it.skipIf(!hasZsh)('zsh: enumerated values through compadd, a list through _values', () => {
    const run = (...words: string[]) =>
      shell('zsh', [
        '-c',
        `compdef() { :; }; source '${scripts.zsh}'
compadd() { shift; print -r -- "compadd \${(P)1}"; }
_values() { print -r -- "values $1 $2 \${@:3}"; }
_files() { print files; }
words=(sitectl ${words.map((w) => `'${w}'`).join(' ')}); CURRENT=\${#words}; _sitectl`,
      ]).trim();
    expect(run('services', 'create', '--type', '')).toBe('compadd APPOINTMENT CLASS COURSE');
    expect(run('bookings', 'list', '--status', '')).toBe(`values -s , value ${BookingStatusValues.join(' ')}`);
    expect(run('services', 'list', '--filter', '')).toBe('files');
  });

  it.skipIf(!hasFish)('fish: enumerated values, each entry of a list', () => {
    const run = (line: string) => shell('fish', ['-c', `source '${scripts.fish}'; complete -C '${line}'`]).split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect(run('sitectl services create --type CL')).toEqual(['CLASS']);
    expect(run('sitectl bookings list --status CONFIRMED,PEN')).toEqual(['CONFIRMED,PENDING']);
    expect(run('sitectl browse st')).toEqual(['staff']);
  });
});
