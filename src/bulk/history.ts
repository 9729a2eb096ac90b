/**
 * The history of changes (docs/architecture.md "Bulk runs, the journal, history and undo"): every write run leaves its journal under the state directory
 * (`<stateDir>/journals/<runId>.ndjson`, 0600); a change's id is its run id, shown short like a git commit (its
 * random part). A command that writes to several sites journals each site's run apart, all naming one change id
 * (HeaderLine.partOf): that is one change here, of several sites. This module lists them, finds one by id or prefix, says which were
 * undone, and keeps the directory to the last {@link MAX_CHANGES} changes of the last {@link MAX_AGE_DAYS} days.
 * A file of the folder that is not a readable journal (changed by hand, cut short, dated in the future, another
 * program's) is left out of the history and named with what is wrong in it; everything else still works.
 */
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import type { RunOrigin } from './journal.js';
import { JournalDamagedError, journalHeader, type JournalSummary, summarizeJournal } from './journal-read.js';

/** Changes kept: the last 1,000, none older than 90 days (whichever is less). */
export const MAX_CHANGES = 1000;
export const MAX_AGE_DAYS = 90;

/** Outcomes that changed nothing, and those that failed; every other outcome is a change made. */
const UNCHANGED = new Set(['unchanged', 'skipped']);
const FAILED = new Set(['failed', 'conflict']);

/**
 * One site's journal of a change. A change is one journal, or several (one per site) when its command wrote to
 * several sites (HeaderLine.partOf).
 */
export interface ChangePart {
  /** The journal's run id (its file name). */
  runId: string;
  journal: string;
  siteId?: string;
  siteName?: string;
  /** What the part acts on and how (`booking policies`, `create`); the change is named by its main part's. */
  entity: string;
  action: string;
  /** The part makes what the main part needs (HeaderLine.prepares: a booking policy an apply created first). */
  prepares?: boolean;
  changed: number;
  unchanged: number;
  failed: number;
  ended: boolean;
}

/** One change as `sitectl history` lists it. */
export interface ChangeSummary {
  /** The change id: the run id, or for a change of several sites the id every site's journal names (`20261125T161948Z-744db7`). */
  id: string;
  /** The short id: the id's random part, as the CLI shows and accepts it. */
  short: string;
  /** The first site's journal (the only one, for a change of one site). */
  journal: string;
  createdAt: string;
  entity: string;
  action: string;
  profile?: string;
  /** The first site's id (the only one, for a change of one site). */
  siteId?: string;
  /** Every site the change wrote to, in the order its journals were started. */
  sites: string[];
  command?: string;
  /** The change this one undid. */
  undoOf?: string;
  /** Sums over the parts. */
  changed: number;
  unchanged: number;
  failed: number;
  /** The change that undid this one (its id), if any. */
  undoneBy?: string;
  /** An undo of this change that did not finish (killed, or failed on the way): `sitectl undo` of this change continues it. */
  undoing?: string;
  /** False while a run is unfinished (killed or interrupted: `--resume` continues it). */
  ended: boolean;
  /** Each site's journal, oldest first. */
  parts: ChangePart[];
}

/** The short form of a change id: its random part (6 hex) after the time, e.g. `744db7`. */
export function shortId(runId: string): string {
  return runId.split('-').pop() ?? runId;
}

/**
 * A journaled command line as a terminal shows it: the program's name or path as it was started
 * (`./bin/sitectl.js`, `/opt/tools/sitectl`, `'npm run dev --'`: the line's first shell word) becomes `sitectl`,
 * so the words that say what was done come first: `sitectl members approve --status PENDING`.
 */
export function shownCommand(command: string): string {
  const program = /^(?:'[^']*'(?:\\''[^']*')*|\S+)/.exec(command)?.[0];
  if (!program) return command;
  const rest = command.slice(program.length).trimStart();
  return rest ? `sitectl ${rest}` : 'sitectl';
}

/** Counts of a journal's results: changed, unchanged (and skipped), failed (and conflicts). */
function countsOf(summary: JournalSummary): { changed: number; unchanged: number; failed: number } {
  let changed = 0;
  let unchanged = 0;
  let failed = 0;
  for (const outcome of summary.outcomes.values()) {
    if (UNCHANGED.has(outcome)) unchanged += 1;
    else if (FAILED.has(outcome)) failed += 1;
    else changed += 1;
  }
  return { changed, unchanged, failed };
}

/** A file of the journals folder the history left out, and what is wrong in it. */
export interface DamagedJournal {
  journal: string;
  problem: string;
}

/** The history read from a journals folder: the changes, oldest first, and the files that are not journals. */
export interface History {
  changes: ChangeSummary[];
  damaged: DamagedJournal[];
}

function journalFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.ndjson'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Every change recorded in `dir`, oldest first: one per journal, except that the journals of one change of
 * several sites (the same HeaderLine.partOf) are one change, its counts summed. A `.ndjson` file that is not a
 * readable journal is left out (and left alone) and listed in `damaged`, with its problem.
 * @param dir the journal directory (defaultJournalDir)
 * @param now the time a journal may not be dated after (more than a day): one from the future is damaged
 */
export function readHistory(dir: string, now: Date): History {
  const byId = new Map<string, ChangeSummary>();
  const summaries: JournalSummary[] = [];
  const damaged: DamagedJournal[] = [];
  for (const file of journalFiles(dir)) {
    try {
      summaries.push(summarizeJournal(join(dir, file), now));
    } catch (err) {
      damaged.push({ journal: join(dir, file), problem: err instanceof JournalDamagedError ? err.problem : err instanceof Error ? err.message : String(err) });
    }
  }
  summaries.sort((a, b) => a.header.createdAt.localeCompare(b.header.createdAt) || a.header.runId.localeCompare(b.header.runId));
  for (const summary of summaries) {
    const h = summary.header;
    const origin: RunOrigin = h.origin ?? {};
    const siteId = origin.siteId ?? (typeof h.args.options?.siteId === 'string' ? h.args.options.siteId : undefined);
    const siteName = origin.siteName ?? (typeof h.args.options?.siteName === 'string' ? h.args.options.siteName : undefined);
    const part: ChangePart = { runId: h.runId, journal: summary.path, siteId, siteName, entity: h.entity, action: h.action, ...(h.prepares ? { prepares: true } : {}), ...countsOf(summary), ended: summary.ended };
    const id = h.partOf ?? h.runId;
    const seen = byId.get(id);
    if (seen) {
      // A change is named by its main part (the apply), not by what was made first for it (a policy it needed).
      if (seen.parts.every((p) => p.prepares) && !part.prepares) Object.assign(seen, { journal: part.journal, entity: h.entity, action: h.action, command: origin.command ?? seen.command });
      seen.parts.push(part);
      if (siteId && !seen.sites.includes(siteId)) seen.sites.push(siteId);
      seen.changed += part.changed;
      seen.unchanged += part.unchanged;
      seen.failed += part.failed;
      seen.ended &&= part.ended;
      continue;
    }
    byId.set(id, {
      id,
      short: shortId(id),
      journal: summary.path,
      createdAt: h.createdAt,
      entity: h.entity,
      action: h.action,
      profile: origin.profile,
      siteId,
      sites: siteId ? [siteId] : [],
      command: origin.command,
      undoOf: h.undoOf,
      changed: part.changed,
      unchanged: part.unchanged,
      failed: part.failed,
      ended: part.ended,
      parts: [part],
    });
  }
  const changes = [...byId.values()];
  changes.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  for (const c of changes) {
    const undone = c.undoOf ? byId.get(c.undoOf) : undefined;
    if (!undone) continue;
    if (!c.ended) undone.undoing = c.id;
    else if (c.changed > 0) {
      undone.undoneBy = c.id;
      undone.undoing = undefined;
    }
  }
  return { changes, damaged };
}

/**
 * The change named by `given`: a whole run id, its short id, or a unique prefix of either (at least 4
 * characters); `last` is the newest change that changed something and is not undone.
 * @throws UserError (exit 2) when none or several match, naming them
 */
export function findChange(changes: readonly ChangeSummary[], given: string): ChangeSummary {
  if (given === 'last') {
    const last = [...changes].reverse().find((c) => c.changed > 0 && !c.undoneBy);
    if (!last) throw new UserError('no change to undo in the history', "'sitectl history' lists the changes");
    return last;
  }
  if (given.trim().length < 4) throw new UserError(`change id '${given}' is too short`, 'give at least 4 characters of an id from sitectl history');
  const matches = changes.filter((c) => c.id === given || c.short === given || c.id.startsWith(given) || c.short.startsWith(given));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UserError(`no change '${given}' in the history`, "'sitectl history' lists the changes");
  throw new UserError(`change id '${given}' is ambiguous: ${matches.map((m) => m.short).join(', ')}`, 'give more characters');
}

/**
 * Deletes the journals past the history's bounds: the changes older than {@link MAX_AGE_DAYS} days, or beyond
 * the newest {@link MAX_CHANGES}. A change of several sites (several journals, one HeaderLine.partOf) counts once
 * and goes or stays whole, so an undo never finds only some of its sites. A change's age is its newest journal's:
 * its file's time, and, for one that looks old by it, the date its header records (a file's time comes from the
 * file system's clock, which may not be this process's: a copied folder, another machine's disk, a clock moved
 * under faketime). A file that is not a journal of ours is left alone.
 * @returns how many journals were deleted
 */
export function pruneHistory(dir: string, now: Date, bounds: { maxChanges?: number; maxAgeDays?: number } = {}): number {
  const maxChanges = bounds.maxChanges ?? MAX_CHANGES;
  const oldest = now.getTime() - (bounds.maxAgeDays ?? MAX_AGE_DAYS) * 86_400_000;
  const files = journalFiles(dir).map((f) => {
    const path = join(dir, f);
    let mtime = 0;
    try {
      mtime = statSync(path).mtimeMs;
    } catch {
      // Gone meanwhile.
    }
    return { path, mtime };
  });
  // Nothing past either bound (the common case): no journal is opened.
  if (files.length <= maxChanges && files.every((f) => f.mtime >= oldest)) return 0;
  const changes = new Map<string, { mtime: number; recorded: number; paths: string[] }>();
  for (const f of files) {
    const header = journalHeader(f.path);
    if (!header) continue;
    const id = header.partOf ?? header.runId;
    const change = changes.get(id) ?? { mtime: 0, recorded: 0, paths: [] };
    change.mtime = Math.max(change.mtime, f.mtime);
    change.recorded = Math.max(change.recorded, Date.parse(header.createdAt) || 0);
    change.paths.push(f.path);
    changes.set(id, change);
  }
  const newestFirst = [...changes.values()].sort((a, b) => b.mtime - a.mtime);
  let removed = 0;
  newestFirst.forEach((change, i) => {
    const old = change.mtime < oldest && change.recorded < oldest;
    if (i < maxChanges && !old) return;
    for (const path of change.paths) {
      try {
        unlinkSync(path);
        removed += 1;
      } catch {
        // Another process removed it, or it cannot be: the next run tries again.
      }
    }
  });
  return removed;
}
