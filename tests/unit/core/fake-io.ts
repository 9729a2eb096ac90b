/** IOStreams over in-memory streams, as a TTY or not, for unit tests of core/output. */
import { PassThrough } from 'node:stream';
import { createIOStreams, type IOStreams } from '../../../src/core/iostreams.js';

export interface FakeIO {
  io: IOStreams;
  out(): string;
  err(): string;
}

export function fakeIO(opts: { tty: boolean; columns?: number; env?: NodeJS.ProcessEnv }): FakeIO {
  const mk = () => {
    const s = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
    s.isTTY = opts.tty;
    s.columns = opts.columns ?? 80;
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    return { s, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const stdout = mk();
  const stderr = mk();
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = opts.tty;
  const io = createIOStreams({ stdin, stdout: stdout.s, stderr: stderr.s, env: opts.env ?? {} });
  return { io, out: stdout.text, err: stderr.text };
}
