/**
 * The flags of every bulk verb and the checks that need no request (docs/architecture.md "Layout and dependency direction"): declared statically by
 * the verb files, while the engine itself (commands/shared/bulk.ts, src/bulk) is loaded only when a bulk verb
 * runs, so `list` and `get` do not pay for it at start-up.
 */
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { collect } from '../../core/filters.js';
import { parseCount } from '../../core/numbers.js';

/** Flags that choose the targets of a bulk verb. */
export interface SelectionFlags {
  filter?: string;
  where?: string[];
  ids?: string[];
  idsFile?: string;
}

/** Declares `--filter` (with `example` in its help), `--where`, `--ids`, `--ids-file`. */
export function addSelectionFlags(cmd: Command, noun: string, example = '{"type":"CLASS"}'): Command {
  return cmd
    .option('--filter <json>', `select ${noun} with a filter, e.g. '${example}' ('{}' = all)`)
    .option('--where <field=value>', 'select by equality (repeatable; combined with --filter)', collect)
    .option('--ids <ids>', 'select these ids (comma-separated, repeatable)', collect)
    .option('--ids-file <file>', "select the ids listed in FILE, one per line or NDJSON from a list command ('-' reads stdin)");
}

/** True when any selection flag was given. */
export function hasSelection(flags: SelectionFlags): boolean {
  return flags.filter !== undefined || Boolean(flags.where?.length) || Boolean(flags.ids?.length) || flags.idsFile !== undefined;
}

/**
 * Which form of a verb that takes one id or a bulk selection was asked for: `one` (an id), `bulk` (selection
 * flags) or `resume` (`--resume JOURNAL`).
 * @param hint what to pass, shown when neither an id nor a selection was given.
 * @param resumeConflict a flag of the verb that `--resume` also refuses (e.g. `--set`), when it was given.
 * @param criteria the verb's own selection flags were given (`--status`, `--service`, ...)
 * @throws UserError (exit 2) for an id with a selection, neither, or `--resume` with other selection flags
 */
export function chooseForm(opts: SelectionFlags & { id?: string; resume?: string }, hint: string, resumeConflict?: string, criteria = false): 'one' | 'bulk' | 'resume' {
  const selected = hasSelection(opts) || criteria;
  if (opts.id !== undefined && (selected || opts.resume !== undefined)) {
    throw new UserError('give either an id or --filter/--where/--ids/--ids-file/--resume, not both');
  }
  if (opts.resume !== undefined) {
    if (selected || resumeConflict) {
      throw new UserError(`--resume continues the recorded run; it takes no ${resumeConflict ? `${resumeConflict} or ` : ''}selection flags`);
    }
    return 'resume';
  }
  if (selected) return 'bulk';
  if (opts.id === undefined) throw new UserError('which ones?', hint);
  return 'one';
}

/** Flags every bulk verb shares. */
export interface BulkFlags {
  yes?: boolean;
  dryRun?: boolean;
  concurrency?: string;
  journal?: string;
  resume?: string;
  json?: string | boolean;
  /** `--no-history`: false. The run's journal is removed once it finished with nothing left to resume. */
  history?: boolean;
}

/** Rows shown in the preview table. */
export const PREVIEW_ROWS = 10;

/**
 * One item of a dry run's plan (docs/architecture.md "The confirmation rule"), as `--dry-run --json` prints them in an array: `change`,
 * `unchanged` (already in the target state) or `refused` (the state machine or a policy forbids it) with the
 * reason and the flag that would allow it; `before`/`after` the changed values.
 */
export interface DryRunItem {
  id: string;
  outcome: 'change' | 'unchanged' | 'refused';
  reason?: string;
  lift?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** The fields of {@link DryRunItem}, for checking `--dry-run --json fields`. */
export const DRY_RUN_FIELDS: readonly string[] = ['id', 'outcome', 'reason', 'lift', 'before', 'after'];

/** Top-level fields of the dry-run plan `--json` prints. */
export const PLAN_FIELDS: readonly string[] = ['action', 'entity', 'dryRun', 'targets', 'toChange', 'unchanged', 'skipped', 'missing', 'mask', 'items'];

/** Declares `--yes --concurrency --journal --resume --json --dry-run` on a bulk verb. */
export function addBulkFlags(cmd: Command): Command {
  return cmd
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--concurrency <n>', 'requests in flight at once (1-16)', '4')
    .option('--journal <path>', 'write the run journal here (default: <state dir>/journals/<run id>.ndjson)')
    .option('--resume <journal>', 'continue the run recorded in this journal: nothing repeated, nothing lost')
    .option('--json [fields]', 'print the plan (--dry-run) or the report as JSON on stdout')
    .option('--dry-run', 'show the plan and stop; change nothing')
    .option('--no-history', "keep no record of this change once it has finished (no 'sitectl undo')");
}

/**
 * `--concurrency` as a number.
 * @throws UserError when it is not an integer from 1 to 16
 */
export function parseConcurrency(raw: string | undefined): number {
  return parseCount(raw ?? '4', '--concurrency', 1, 16);
}
