/**
 * The import-cycle rule of `npm run lint` (.dependency-cruiser.mjs; docs/architecture.md "Layout and dependency
 * direction"), run as lint runs it (the depcruise command with the project's configuration) on small trees
 * written for the test: a cycle closed by a type-only import and one closed by a dynamic import fail the check;
 * a lazy import of a leaf, and a type imported from below, pass it. The arrows the document states are rules of
 * the same configuration: an import against one fails, naming it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.mjs');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path -> source) under a new directory with the project's tsconfig.json, and runs the check there. */
function check(files: Record<string, string>): { code: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sitectl-cycles-'));
  made.push(dir);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const r = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the import-cycle rule', () => {
  it('fails on a cycle closed by a type-only import, and on one closed by a dynamic import', () => {
    const r = check({
      // session.ts <-> auth.ts: the lower module takes a type of the upper one.
      'src/session.ts': "import { token } from './auth.js';\nexport interface Context { env: string }\nexport const ask = (): string => token({ env: '' });\n",
      'src/auth.ts': "import type { Context } from './session.js';\nexport function token(ctx: Context): string { return ctx.env; }\n",
      // view.ts <-> staff.ts: the view loads the reader lazily, the reader takes the view's cache.
      'src/view.ts': "export const names = new Map<string, string>();\nexport const prepare = async (): Promise<void> => (await import('./staff.js')).lookup();\n",
      'src/staff.ts': "import { names } from './view.js';\nexport function lookup(): void { names.set('a', 'b'); }\n",
    });
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/no-circular: src\/(session|auth)\.ts →\s+src\/(auth|session)\.ts →/);
    expect(r.out).toMatch(/no-circular: src\/(view|staff)\.ts →\s+src\/(staff|view)\.ts →/);
    expect(r.out).toMatch(/2 dependency violations \(2 errors/);
  });

  it('passes a tree whose imports run one way: a lazy import of a leaf, a type declared below', () => {
    const r = check({
      'src/session.ts': "import type { TokenContext } from './auth.js';\nexport interface Context extends TokenContext { bin: string }\nexport const ask = async (ctx: Context): Promise<string> => (await import('./auth.js')).token(ctx);\n",
      'src/auth.ts': "export interface TokenContext { env: string }\nexport function token(ctx: TokenContext): string { return ctx.env; }\n",
      'src/view.ts': "import { names } from './names.js';\nexport const label = (id: string): string => names.get(id) ?? id;\nexport const prepare = async (): Promise<void> => (await import('./staff.js')).lookup();\n",
      'src/staff.ts': "import { names } from './names.js';\nexport function lookup(): void { names.set('a', 'b'); }\n",
      'src/names.ts': 'export const names = new Map<string, string>();\n',
    });
    expect(r.out).toMatch(/no dependency violations found \(5 modules/);
    expect(r.code, r.out).toBe(0);
  });

  it('fails on an import against an arrow: core importing the bulk engine, a command importing ui statically', () => {
    const r = check({
      'src/core/text.ts': "import { plan } from '../bulk/plan.js';\nexport const said = (): string => plan();\n",
      'src/bulk/plan.ts': "export const plan = (): string => 'plan';\n",
      'src/commands/list.ts': "import { draw } from '../ui/index.js';\nexport const list = (): string => draw();\n",
      'src/ui/index.ts': "export const draw = (): string => 'drawn';\n",
    });
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/error core-is-a-leaf: src\/core\/text\.ts → src\/bulk\/plan\.ts/);
    expect(r.out).toMatch(/error ui-loaded-lazily: src\/commands\/list\.ts → src\/ui\/index\.ts/);
  });
});
