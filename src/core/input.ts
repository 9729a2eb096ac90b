/**
 * Reading what the user hands in as a file or on stdin (`--file`, `-f`, `--query-file`, `--input`,
 * `--ids-file`, `--data-file`, `--*-stdin`, catalogue files): the one input reader (docs/architecture.md "Safety rules": every read of a file or stdin is bounded).
 *
 * Each source is read as a stream and counted as it comes, so an endless source (`/dev/zero`, `/dev/urandom`, a
 * pipe that never ends) is refused as soon as it passes the limit of its kind, never held whole in memory:
 *
 * | kind        | limit  | used for                                                                 |
 * | ----------- | ------ | ------------------------------------------------------------------------ |
 * | `entity`    | 64 MiB | entity files (`--file`, `--input`, `--data-file`), `--ids-file`          |
 * | `catalogue` | 64 MiB | services catalogue files (`services apply/diff -f`)                      |
 * | `query`     | 1 MiB  | a GraphQL document (`api graphql --query-file`)                          |
 * | `secret`    | 64 KiB | `--api-key-stdin`, `--password-stdin`, `--token-stdin`, `--code-stdin`... |
 *
 * What is read must be text: UTF-8 without NUL bytes. Every refusal is a UserError (exit 2) of one line naming
 * the flag and the source, so every flag reports an unreadable, endless or binary source the same way.
 */
import { createReadStream } from 'node:fs';
import { UserError } from './errors.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The limit of each kind of input, in bytes (see the table above). */
export const INPUT_LIMITS = {
  entity: 64 * MiB,
  catalogue: 64 * MiB,
  query: 1 * MiB,
  secret: 64 * KiB,
} as const;

/** A kind of input, which sets its size limit. */
export type InputKind = keyof typeof INPUT_LIMITS;

const KIND_NAMES: Record<InputKind, string> = {
  entity: 'an entity file',
  catalogue: 'a catalogue file',
  query: 'a GraphQL query',
  secret: 'a secret',
};

/** `bytes` as the README writes a limit: `64 MiB`, `1 MiB`, `64 KiB`. */
export function formatSize(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

/** What the user typed for a source, in messages: `--file FILE`, `--password-stdin` (stdin). */
function named(flag: string, source: string): string {
  if (source === '-') return flag.endsWith('-stdin') ? `${flag} (stdin)` : `${flag} - (stdin)`;
  return `${flag} ${source}`;
}

/**
 * The bytes of `stream`, at most `limit` of them: the stream is destroyed, and the read refused, as soon as one
 * byte more arrives.
 * @throws UserError (exit 2) `NAME is larger than LIMIT`
 */
async function readBounded(stream: NodeJS.ReadableStream, limit: number, name: string, kind: InputKind): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > limit) {
        throw new UserError(`${name} is larger than ${formatSize(limit)}, the limit for ${KIND_NAMES[kind]}`);
      }
      chunks.push(buf);
    }
  } finally {
    if (size > limit) (stream as { destroy?: () => void }).destroy?.();
  }
  return Buffer.concat(chunks);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `bytes` as text.
 * @throws UserError (exit 2) `NAME is not text` for a NUL byte or bytes that are not UTF-8
 */
function asText(bytes: Buffer, name: string): string {
  if (bytes.includes(0)) throw new UserError(`${name} is not text (it holds a NUL byte)`, 'give a UTF-8 text file');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new UserError(`${name} is not text (it is not valid UTF-8)`, 'give a UTF-8 text file');
  }
}

/**
 * The text of `source`, read through the one bounded reader: a file path, or `-` for `stdin` (until EOF).
 * A file may be anything that can be read (a regular file, a FIFO, `/dev/stdin`); its size is counted while
 * it streams, never trusted from `stat`.
 * @param flag the flag that named it, e.g. `--file` or `--password-stdin`, for the error message
 * @param kind sets the size limit ({@link INPUT_LIMITS}; default `entity`, 64 MiB)
 * @throws UserError (exit 2): `cannot read --file PATH: ENOENT`; `--file PATH is larger than 64 MiB, ...`;
 *   `--file PATH is not text (...)`
 */
export async function readSource(flag: string, source: string, stdin: NodeJS.ReadableStream, kind: InputKind = 'entity'): Promise<string> {
  const name = named(flag, source);
  let bytes: Buffer;
  try {
    // createReadStream, not node:fs/promises: node:fs is loaded anyway, fs/promises would cost every command ~4 ms.
    bytes = await readBounded(source === '-' ? stdin : createReadStream(source), INPUT_LIMITS[kind], name, kind);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return asText(bytes, name);
}

/**
 * A secret piped in on stdin (`--api-key-stdin`, `--password-stdin`, ...): at most 64 KiB of text.
 * @param flag the flag that asked for it, for messages
 * @throws UserError (exit 2) as {@link readSource}
 */
export function readSecret(flag: string, stdin: NodeJS.ReadableStream): Promise<string> {
  return readSource(flag, '-', stdin, 'secret');
}

/**
 * `source` parsed as JSON; `undefined` when it is empty or blank.
 * @throws UserError (exit 2) as {@link readSource}, or when it is not valid JSON.
 */
export async function readJsonSource(flag: string, source: string, stdin: NodeJS.ReadableStream, kind: InputKind = 'entity'): Promise<unknown> {
  const text = await readSource(flag, source, stdin, kind);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${flag} ${source} is not valid JSON: ${(err as Error).message}`);
  }
}
