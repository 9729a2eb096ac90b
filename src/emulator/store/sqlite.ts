/**
 * The emulator's SQLite driver: Node's built-in `node:sqlite` (`DatabaseSync`), no native addon to build.
 *
 * Chosen over better-sqlite3 (docs/runtime.md has the measurements): better-sqlite3 12 aborts the emulator on
 * Node 24.19+ (`Assertion failed: (env) != nullptr` in `node::RemoveEnvironmentCleanupHook`, from a statement
 * destructor run by the garbage collector after a worker's environment is gone; WiseLibs/better-sqlite3#1515),
 * 13.x does not run on Node 20 at all, and both need a compiler and Node's headers wherever no prebuilt binary
 * is reachable. `node:sqlite` ships with the runtime (Node >= 22.13 without a flag), so installing sitectl
 * builds nothing; its throughput on the emulator's statements is within a few per cent of better-sqlite3's.
 *
 * This module adds what better-sqlite3 gave and `node:sqlite` does not: typed statements, and transactions that
 * nest as savepoints ({@link transaction}). It also keeps Node 22's one-time "SQLite is an experimental feature"
 * warning out of the emulator's output (the API used here is the stable subset shared by Node 22, 24 and 26).
 */
import { createRequire } from 'node:module';
import type * as NodeSqlite from 'node:sqlite';
import type { DatabaseSync as DatabaseSyncType, SQLInputValue } from 'node:sqlite';

export type Database = DatabaseSyncType;
export type { SQLInputValue };

/** A prepared statement with typed parameters `P` and row shape `R` (rows have a null prototype). */
export interface Statement<P extends SQLInputValue[] = [], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  run(...params: P): { changes: number | bigint; lastInsertRowid: number | bigint };
}

/** The text of the warning Node 22 emits once when `node:sqlite` is first loaded. */
const EXPERIMENTAL = /SQLite is an experimental feature/;

let sqlite: typeof NodeSqlite | undefined;

/**
 * Loads `node:sqlite` once, dropping only its ExperimentalWarning (every other warning still goes through).
 * @throws Error when the runtime has no `node:sqlite` (Node older than 22.13): the message names the versions
 */
function load(): typeof NodeSqlite {
  if (sqlite) return sqlite;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (EXPERIMENTAL.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    sqlite = createRequire(import.meta.url)('node:sqlite') as typeof NodeSqlite;
  } catch {
    throw new Error(`the emulator needs Node 22.13 or newer (node:sqlite); this is Node ${process.versions.node}`);
  } finally {
    process.emitWarning = emit;
  }
  return sqlite;
}

/**
 * Opens (creating) the database file at `file`; `:memory:` for a private in-memory database.
 * @throws Error when the file cannot be opened or is not a database (SQLite's message)
 */
export function openDatabase(file: string): Database {
  const { DatabaseSync } = load();
  return new DatabaseSync(file);
}

/** Prepares `sql` as a {@link Statement} with parameters `P` and rows `R`. */
export function prepare<P extends SQLInputValue[] = [], R = unknown>(db: Database, sql: string): Statement<P, R> {
  return db.prepare(sql) as unknown as Statement<P, R>;
}

/** Runs a PRAGMA and returns its first row's first value (`pragma(db, 'journal_mode = WAL')` -> `'wal'`). */
export function pragma(db: Database, text: string): unknown {
  const row = db.prepare(`PRAGMA ${text}`).get() as Record<string, unknown> | undefined;
  return row ? Object.values(row)[0] : undefined;
}

const depths = new WeakMap<Database, number>();

/**
 * Runs `fn` in a transaction on `db`: BEGIN ... COMMIT when none is open, else a savepoint of its own, as
 * better-sqlite3's `db.transaction()` nests. Committed (or released) when `fn` returns; rolled back (to the
 * savepoint) when it throws, and the error is rethrown. A rollback SQLite already did by itself (after
 * SQLITE_FULL, SQLITE_IOERR, ...) is not an error here.
 * @throws whatever `fn` throws, or SQLite's error when COMMIT fails (the transaction is then rolled back)
 */
export function transaction<T>(db: Database, fn: () => T): T {
  const depth = depths.get(db) ?? 0;
  const savepoint = depth > 0 ? `sitectl_sp${depth}` : undefined;
  db.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
  depths.set(db, depth + 1);
  let result: T;
  try {
    result = fn();
  } catch (err) {
    depths.set(db, depth);
    rollback(db, savepoint);
    throw err;
  }
  depths.set(db, depth);
  try {
    db.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
  } catch (err) {
    rollback(db, savepoint);
    throw err;
  }
  return result;
}

function rollback(db: Database, savepoint: string | undefined): void {
  try {
    if (savepoint) {
      db.exec(`ROLLBACK TO ${savepoint}`);
      db.exec(`RELEASE ${savepoint}`);
    } else {
      db.exec('ROLLBACK');
    }
  } catch {
    // SQLite rolled the transaction back itself (an I/O or disk-full error): nothing left to undo.
  }
}
