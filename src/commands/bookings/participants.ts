/**
 * `sitectl bookings participants ID N`: changes how many take part in a class or course booking (room is
 * checked for an increase; not for appointments).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { parseCount } from '../../core/numbers.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';
import { declareRule, REVERSIBLE } from '../shared/confirm.js';
import type { EntityView } from '../shared/entity-view.js';
import { idOf } from '../shared/verbs.js';
import { participantsRun } from './shared/moves.js';
import { fetchBooking } from './shared/read.js';
import { BOOKING_VIEW, type BookingRow } from './shared/view.js';

export interface ParticipantsOptions extends FormatFlags {
  id: string;
  count: string;
  revision?: string;
}

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('participants')
    .description('Change how many take part in a class or course booking')
    .argument('<id>', 'the booking (or a unique id prefix)')
    .argument('<n>', 'participants (1-1000)')
    .option('--revision <n>', "the booking's revision to act on (default: its current one)")
    .addHelpText('after', '\nExample:\n  sitectl bookings participants 7c1e 3');
  // A change to one booking that can be made again the other way, as `bookings reschedule` is: acts at once.
  declareRule(addFormatFlags(cmd), REVERSIBLE).action(async (id: string, count: string, o: Omit<ParticipantsOptions, 'id' | 'count'>) => {
    await run({ ...o, id, count }, ctx);
  });
}

/**
 * Sets the number as a one-item plan of the bulk engine (commands/shared/one.ts runOneVerb): says so when it is
 * the number already (nothing sent), journals the former number, so `sitectl undo` sets it back.
 * @throws UserError (exit 2) for a bad number; (exit 1) for an appointment or when the platform refuses it (409 no
 *   room, stale revision); NotFoundError (exit 1)
 */
export async function run(opts: ParticipantsOptions, ctx: Context): Promise<void> {
  const n = parseCount(opts.count, 'participants', 1, 1000);
  if (opts.revision !== undefined && !/^\d+$/.test(opts.revision)) throw new UserError(`--revision must be a whole number such as 3, got '${opts.revision}'`);
  const { runOneVerb } = await import('../shared/one.js');
  let id = opts.id;
  const people = `${n} participant${n === 1 ? '' : 's'}`;
  await runOneVerb(ctx, {
    view: BOOKING_VIEW as EntityView<unknown>,
    title: 'Changing participants',
    async verify(api) {
      id = await idOf(ctx, api, BOOKING_VIEW, opts.id);
    },
    build: (api) => participantsRun(api, { options: { counts: { [id]: { to: n } } } }),
    resolve: async () => id,
    flags: opts,
    command: 'bookings participants',
    one: {
      given: opts.id,
      rule: REVERSIBLE,
      revision: opts.revision,
      already: () => `booking ${id} already has ${people}`,
      outcome: (after: BookingRow) => `booking ${id} now has ${people} (revision ${after.revision})`,
      read: async (bid: string) => fetchBooking(await ctx.api(), bid, ctx.signal),
    },
  });
}
