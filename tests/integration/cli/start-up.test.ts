/**
 * What the built CLI loads at start-up (docs/runtime.md §3): the bundle's chunk groups (rolldown.config.ts
 * `hotPathChunks`) keep a short command to a few files, and a command never loads what only other commands need.
 * The built CLI runs as a child process against a real emulator, with a module load hook (NODE_OPTIONS=--import)
 * that records each file of dist/ the ESM loader loads. The bundle marks each module it holds with a `// <path>`
 * comment, which is how a loaded file is told to hold Ink, React or the emulator server. File counts, not times,
 * are checked here: the times are `npm run bench`'s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let dir: string;
let hook: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 10, bookings: 20, members: 10 });
  dir = mkdtempSync(join(tmpdir(), 'sitectl-start-up-'));
  hook = join(dir, 'hook.mjs');
  // Appends the path of each file:// module loaded from a dist/ directory to $LOADED_LOG.
  writeFileSync(
    hook,
    [
      "import { registerHooks } from 'node:module';",
      "import { appendFileSync } from 'node:fs';",
      'registerHooks({ load(url, context, next) {',
      "  if (url.startsWith('file:') && url.includes('/dist/')) appendFileSync(process.env.LOADED_LOG, new URL(url).pathname + '\\n');",
      '  return next(url, context);',
      '} });',
    ].join('\n'),
  );
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs the built CLI and returns the dist files it loaded, with their text. */
async function loaded(args: string[]): Promise<Array<{ name: string; text: string }>> {
  const log = join(dir, `loaded-${++runs}.log`);
  writeFileSync(log, '');
  const r = await runCli(args, { emulator: emu, env: { NODE_OPTIONS: `--import=${hook}`, LOADED_LOG: log } });
  expect(r.code, r.stderr).toBe(0);
  const paths = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return [...new Set(paths)].map((p) => ({ name: basename(p), text: readFileSync(p, 'utf8') }));
}

/** The modules (by the bundle's `// path` comments) that the loaded files hold under `prefix`. */
const holding = (files: Array<{ text: string }>, prefix: string): string[] =>
  // A dependency reached through a symlinked node_modules is named by its real path (`../main/node_modules/...`).
  files.flatMap((f) => [...f.text.matchAll(new RegExp(`^// (?:\\S*/)?(${prefix}[^\\s]*)`, 'gm'))].map((m) => m[1]!));

describe('start-up: what a command loads', () => {
  it('services list --json loads main.js, its chunk groups and undici: at most 14 files, no Ink, React, emulator or date-fns', async () => {
    const files = await loaded(['services', 'list', '--json']);
    const names = files.map((f) => f.name);
    expect(names).toContain('main.js');
    for (const group of ['cli', 'api', 'reads', 'noun-services']) expect(names.some((n) => n.startsWith(`${group}-`)), `${group} in ${names}`).toBe(true);
    expect(holding(files, 'src/api/client.ts')).toHaveLength(1);
    expect(files.length, names.join(' ')).toBeLessThanOrEqual(14);
    for (const never of ['node_modules/ink/', 'node_modules/react/', 'node_modules/date-fns/', 'node_modules/jq-wasm/', 'node_modules/handlebars/', 'src/emulator/', 'src/ui/', 'src/bulk/']) {
      expect(holding(files, never), never).toEqual([]);
    }
  });

  it('--jq loads jq (WebAssembly inside the bundle) only when given, and --template Handlebars only when given', async () => {
    const jq = await loaded(['services', 'list', '--jq', '.[0].id']);
    expect(holding(jq, 'node_modules/jq-wasm/').length).toBeGreaterThan(0);
    expect(holding(jq, 'node_modules/handlebars/')).toEqual([]);
    const template = await loaded(['services', 'list', '--template', '{{#each this}}{{id}}{{nl}}{{/each}}']);
    expect(holding(template, 'node_modules/handlebars/').length).toBeGreaterThan(0);
    expect(holding(template, 'node_modules/jq-wasm/')).toEqual([]);
  });

  it('--help loads neither the API client nor a noun', async () => {
    const files = await loaded(['--help']);
    expect(files.length, files.map((f) => f.name).join(' ')).toBeLessThanOrEqual(6);
    expect(holding(files, 'src/api/client.ts')).toEqual([]);
    expect(holding(files, 'src/commands/services/')).toEqual([]);
  });

  it('a single write (services update --dry-run) loads the write engine in a few files, and no UI', async () => {
    const [first] = JSON.parse((await runCli(['services', 'list', '--json', 'id', '--limit', '1'], { emulator: emu })).stdout) as Array<{ id: string }>;
    const files = await loaded(['services', 'update', first!.id, '--set', 'description=start-up', '--dry-run']);
    expect(holding(files, 'src/bulk/run.ts')).toHaveLength(1);
    expect(files.length, files.map((f) => f.name).join(' ')).toBeLessThanOrEqual(25);
    for (const never of ['node_modules/ink/', 'node_modules/react/', 'src/emulator/', 'src/ui/']) expect(holding(files, never), never).toEqual([]);
  });
});
