/**
 * Reading what the user hands in as a file or on stdin (`--file -`, `--input -`, `--ids-file -`,
 * `--api-key-stdin`). One place, so every flag reports an unreadable source or bad JSON the same way:
 * one line naming the flag (design.md "Output and interaction").
 */
import { readFileSync } from 'node:fs';
import { UserError } from './errors.js';

/** All of `stream` as UTF-8 text (stdin until EOF). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The text of `source`: a file path, or `-` for `stdin`.
 * @param flag the flag that named it, e.g. `--file`, for the error message.
 * @throws UserError (exit 2) `cannot read --file PATH: ENOENT` when the file cannot be read.
 */
export async function readSource(flag: string, source: string, stdin: NodeJS.ReadableStream): Promise<string> {
  try {
    // Sync on purpose: node:fs is loaded anyway, node:fs/promises would cost every services command ~4 ms to load.
    return source === '-' ? await readAll(stdin) : readFileSync(source, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read ${flag} ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/**
 * `source` parsed as JSON; `undefined` when it is empty or blank.
 * @throws UserError (exit 2) when it cannot be read or is not valid JSON.
 */
export async function readJsonSource(flag: string, source: string, stdin: NodeJS.ReadableStream): Promise<unknown> {
  const text = await readSource(flag, source, stdin);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${flag} ${source} is not valid JSON: ${(err as Error).message}`);
  }
}
