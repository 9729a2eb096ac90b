/**
 * How the user started the CLI, so hints name a command that works when pasted back (docs/architecture.md "Layout and dependency direction": a
 * resume hint saying `sitectl ...` fails with "command not found" when the tool was started as
 * `./bin/sitectl.js`).
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, relative } from 'node:path';

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH`, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The command as the user can type it again: `sitectl` when that name on PATH is this program, `npm run dev
 * --` from the source runner, else the script's path (relative to the working directory when it lies below it,
 * e.g. `./bin/sitectl.js`).
 * @param script the script node ran (process.argv[1])
 */
export function invocationName(script: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (!script) return 'sitectl';
  if (basename(script) === 'dev.ts') return 'npm run dev --';
  const found = onPath('sitectl', env);
  if (found && sameFile(found, script)) return 'sitectl';
  const rel = isAbsolute(script) ? relative(cwd, script) : script;
  if (!rel.startsWith('..') && !isAbsolute(rel)) return rel.startsWith('.') ? rel : `./${rel}`;
  return script;
}

/** Quotes `arg` for a POSIX shell when it holds anything but safe characters. */
export function shellWord(arg: string): string {
  return /^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
