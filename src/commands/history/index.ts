/**
 * `sitectl history [--noun N] [--limit N] [--json|--ndjson|--csv]` (docs/architecture.md "Bulk runs, the journal, history and undo"): the changes made, newest
 * first, one line each: the change id (short, as `sitectl undo` takes it), when, the profile and site, the
 * command, counts of changed, unchanged and failed items, and whether it was undone. Read from the journals under
 * the state directory (bulk/history.ts); nothing is asked of the platform. A change made on several sites at once
 * (`services apply --to-site A --to-site B`) is one line, naming its sites.
 */
import { type Command, Option } from 'commander';
import { defaultJournalDir } from '../../bulk/journal.js';
import { type ChangeSummary, readHistory, shortId, shownCommand } from '../../bulk/history.js';
import type { Context } from '../../context.js';
import { parseCount } from '../../core/numbers.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, resolveFormat } from '../../core/output.js';
import { warnDamaged } from '../shared/bulk.js';
import { choiceOf } from '../shared/choices.js';
import { journaledEntities } from '../noun-list.js';
import { completesWith } from '../../core/flag-values.js';

interface HistoryOptions extends FormatFlags {
  noun?: string;
  limit?: string;
}

/** The entities whose changes are journaled, as the nouns declare them (commands/nouns.ts). */
const NOUNS = journaledEntities();

/**
 * A change as listed: `when` a Date, so a terminal shows it by the time rule (`Wed 17:38`) and piped output as ISO.
 * Machine output also lists each file the history left out, as `{journal, damaged}` alone.
 */
type Row = Partial<ChangeSummary> & { journal: string; undone?: string; when?: Date; damaged?: string };

/**
 * On a narrow terminal the site, the profile and UNCHANGED go first, then ACTION and NOUN (the command names
 * both; an undo's row says which change it undoes). COMMAND wants its whole length before those may stay, stays at
 * 80 columns and is shortened from its start, whole leading words first (`…members approve --status PENDING`),
 * so what was done and with which arguments is kept; only a terminal too narrow for even ten cells of it drops it.
 */
const COLUMNS: Column<Row>[] = [
  { key: 'short', header: 'CHANGE', noTruncate: true },
  { key: 'when', header: 'WHEN', age: true },
  { key: 'entity', header: 'NOUN', priority: 2 },
  { key: 'action', header: 'ACTION', priority: 3 },
  { key: 'changed', header: 'CHANGED', align: 'right' },
  { key: 'unchanged', header: 'UNCHANGED', align: 'right', priority: 4 },
  { key: 'failed', header: 'FAILED', align: 'right' },
  { key: 'undone', header: 'UNDONE' },
  { key: 'profile', header: 'PROFILE', priority: 5 },
  // A change of several sites (services apply --to-site A --to-site B) is one row naming each.
  { key: 'sites', header: 'SITE', priority: 6, get: (r) => siteNames(r) },
  { key: 'command', header: 'COMMAND', priority: 1, want: 48, cutFrom: 'start' },
];

const FIELDS = ['id', 'short', 'journal', 'createdAt', 'when', 'entity', 'action', 'profile', 'siteId', 'sites', 'parts', 'command', 'undoOf', 'changed', 'unchanged', 'failed', 'undone', 'undoneBy', 'ended', 'damaged'];


/** The sites of a change by name where its journals know it, else by id. */
function siteNames(c: Row): string {
  const names = (c.parts ?? []).map((p) => p.siteName ?? p.siteId).filter((n): n is string => Boolean(n));
  return [...new Set(names)].join(', ') || (c.siteId ?? '');
}

export function register(cmd: Command, ctx: Context): void {
  addFormatFlags(
    cmd
      .addOption(completesWith(new Option('--noun <noun>', `only the changes of this noun (${NOUNS.join(', ')})`), { kind: 'words', words: NOUNS }))
      .option('--limit <n>', 'at most this many (default 20)'),
  )
    .addHelpText(
      'after',
      '\nChanges are kept 90 days (the last 1,000 at most); a run with --no-history is not kept.\n\nExamples:\n  sitectl history\n  sitectl history --noun services --limit 5\n  sitectl history --json short,action,changed,undone',
    )
    .action(async (o: HistoryOptions) => {
      await run(o, ctx);
    });
}

/**
 * Prints the history.
 * @throws UserError (exit 2) for an unknown --noun, a bad --limit or --json field
 */
export async function run(opts: HistoryOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(opts, fieldsChecker(FIELDS));
  const noun = opts.noun === undefined ? undefined : choiceOf(opts.noun, NOUNS, '--noun', { fold: (v) => v.trim().toLowerCase() });
  const limit = opts.limit === undefined ? 20 : parseCount(opts.limit, '--limit', 1, 1000);
  const history = readHistory(defaultJournalDir(ctx.env), ctx.now());
  warnDamaged(ctx, history.damaged);
  // A terminal's table shows the command as `sitectl members approve ...`; piped and machine output keep it as typed.
  const terminal = format.kind === 'table' && ctx.io.isStdoutTTY;
  const changes = history.changes
    .filter((c) => !noun || c.entity === noun)
    .reverse()
    .slice(0, limit)
    .map(
      (c): Row => ({
        ...c,
        when: new Date(c.createdAt),
        undone: c.undoneBy ? `by ${shortId(c.undoneBy)}` : c.undoOf ? `(undoes ${shortId(c.undoOf)})` : '',
        ...(terminal && c.command ? { command: shownCommand(c.command) } : {}),
      }),
    );
  // Machine output marks the files left out too, after the changes: `{journal, damaged}`.
  const marked: Row[] = format.kind === 'table' ? [] : history.damaged.map((d) => ({ journal: d.journal, damaged: d.problem }));
  await printRecords(ctx.io, format, [...changes, ...marked], COLUMNS, { now: ctx.now(), empty: noun ? `No changes to ${noun} in the history.` : 'No changes in the history yet.' });
}
