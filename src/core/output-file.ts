/**
 * The one output writer of every `-o FILE` (docs/architecture.md "Safety rules": `-o` writes a regular file
 * atomically and writes into anything else without replacing it).
 *
 * - `-o -` writes to stdout.
 * - A regular file, or a path where nothing is yet, is written to a temporary file beside it (same directory,
 *   so the same file system), flushed, then renamed over it: a reader sees the old content or the new, never
 *   half of it, and a failed write leaves the old file as it was. An existing file keeps its mode; a new one is
 *   0600 whatever the umask (site data). A symbolic link is followed: the file it points to is replaced, the
 *   link stays, and the caller is told that file's path (the command names it).
 * - Anything else that exists at the path (a character device such as `/dev/null` or `/dev/full`, a FIFO, a
 *   socket) is opened and written in place, never replaced or removed.
 * - A directory is refused (exit 2).
 */
import { chmodSync, closeSync, createWriteStream, fsyncSync, lstatSync, openSync, readlinkSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { ExitCode, UserError } from './errors.js';

/** Mode of a file `-o` creates (site data: owner only). */
export const NEW_FILE_MODE = 0o600;

/**
 * What `-o` wrote to: `stdout`, a regular file replaced atomically, or a device/FIFO/socket written in place;
 * `linked` is the file a symbolic link at the path points to, when it was one (that file was written).
 */
export interface OutputTarget {
  kind: 'stdout' | 'file' | 'in-place';
  linked?: string;
}

function failure(target: string, err: unknown): UserError {
  return new UserError(`cannot write -o ${target}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, undefined, ExitCode.Failure);
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Where a chain of symbolic links at `path` ends (the path itself when it is none), dangling or not.
 * @throws Error ELOOP after 40 links, as the system does
 */
function linkTarget(path: string): string {
  let at = path;
  for (let hops = 0; lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink(); hops++) {
    if (hops >= 40) throw Object.assign(new Error('too many symbolic links'), { code: 'ELOOP' });
    at = resolvePath(dirname(at), readlinkSync(at));
  }
  return at;
}

/** Writes into what is at `path` (a device, a FIFO) without replacing it; waits for a FIFO's reader. */
function writeInPlace(path: string, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    // Asynchronous open: opening a FIFO waits for a reader, and must not block the event loop (Ctrl-C).
    const out = createWriteStream(path, { flags: 'w' });
    out.on('error', reject);
    out.end(data, (err?: Error | null) => (err ? reject(err) : resolve()));
  });
}

/** Writes `data` to a temporary file beside `path` with `mode`, flushes it and renames it over `path`. */
function writeAtomically(path: string, data: string | Uint8Array, mode: number): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', mode);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    chmodSync(tmp, mode); // the umask may have narrowed (or not) what openSync created
    renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw err;
  }
}

/**
 * Writes `data` where `-o TARGET` says, by the rules above.
 * @param target the `-o` value: `-` for stdout, else a path
 * @param stdout where `-o -` goes
 * @returns what was written to
 * @throws UserError exit 2 for a directory; exit 1 (`cannot write -o PATH: ENOSPC`) when the write fails, the
 *   old file then left as it was
 */
export async function writeOutput(target: string, data: string | Uint8Array, stdout: NodeJS.WritableStream): Promise<OutputTarget> {
  if (target === '-') {
    stdout.write(data);
    return { kind: 'stdout' };
  }
  if (target === '') throw new UserError('-o needs a file name (or - for stdout)');
  try {
    // A symbolic link: the file it points to is written (made, when the link dangles), the link stays.
    const path = linkTarget(target);
    const linked = path !== target ? { linked: path } : {};
    let st = statOf(path);
    if (st?.isDirectory()) throw new UserError(`-o ${target} is a directory`, 'name a file in it');
    if (st && !st.isFile()) {
      await writeInPlace(path, data);
      return { kind: 'in-place', ...linked };
    }
    st = st ? statOf(path) : undefined;
    writeAtomically(path, data, st ? st.mode & 0o7777 : NEW_FILE_MODE);
    return { kind: 'file', ...linked };
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw failure(target, err);
  }
}
