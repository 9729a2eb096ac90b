/**
 * `sitectl services locations set ID [--business ID]... [--custom-address TEXT]... [--customer]
 * [--removed-sessions KEEP_AT_CURRENT_LOCATION|MOVE_TO_LOCATION|DELETE] [--move-to-business ID]`: replaces the
 * locations of a service (docs/wire.md §14 "POST /v2/services/{serviceId}/locations"; the
 * removed-location session actions are listed there).
 */
import type { Command } from 'commander';
import { RemovedLocationSessionsActionValues } from '../../api/schemas/service.js';
import type { Service } from '../../api/schemas/service.js';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { choiceOf } from '../shared/choices.js';
import { declareRule, DESTRUCTIVE, REVERSIBLE, type VerbRule } from '../shared/confirm.js';
import { collect } from '../../core/filters.js';
import { addFormatFlags, type FormatFlags } from '../../core/output.js';

const ACTIONS = RemovedLocationSessionsActionValues;
type Action = (typeof ACTIONS)[number];

export interface LocationsOptions extends FormatFlags {
  id: string;
  business: string[];
  customAddress: string[];
  customer?: boolean;
  removedSessions?: string;
  moveToBusiness?: string;
  yes?: boolean;
}

/**
 * A change to one service, as `services update` is, so it acts at once; with `--removed-sessions DELETE` it
 * deletes the sessions at the removed locations, and takes the rule of every delete: it asks first (as
 * `services apply` does with `--prune`).
 */
function locationsRule(action: Action | undefined): VerbRule {
  return action === 'DELETE' ? DESTRUCTIVE : REVERSIBLE;
}

export function register(parent: Command, ctx: Context): void {
  const locations = parent.command('locations').description('Replace where a service is offered');
  const set = locations
    .command('set')
    .description('Replace the locations of a service')
    .argument('<id>', 'service id (or a unique prefix)')
    .option('--business <id>', "business location id ('sitectl services business-locations list'); repeatable", collect, [])
    .option('--custom-address <text>', 'a custom address, e.g. "12 Main St, Springfield"; repeatable', collect, [])
    .option('--customer', "at the customer's place")
    .option('--removed-sessions <action>', `what happens to sessions at removed locations: ${ACTIONS.join(', ')}`)
    .option('--move-to-business <id>', 'with MOVE_TO_LOCATION: the business location the sessions move to')
    .addHelpText('after', '\nExample:\n  sitectl services locations set ID --business LOC1 --custom-address "Park, Gate 3" --removed-sessions KEEP_AT_CURRENT_LOCATION');
  declareRule(addFormatFlags(set), REVERSIBLE).addHelpText('after', 'With --removed-sessions DELETE it deletes sessions, and asks first as every delete does.');
  set.action(async (id: string, o: Omit<LocationsOptions, 'id'>) => {
    await run({ id, ...o }, ctx);
  });
}

/**
 * @throws UserError (exit 2) with no location, an unknown action, or MOVE_TO_LOCATION without
 *   --move-to-business (and the converse), or DELETE off a terminal without --yes; DeclinedError; API errors
 *   otherwise.
 */
export async function run(opts: LocationsOptions, ctx: Context): Promise<void> {
  if (opts.customAddress.some((a) => a.trim() === '')) throw new UserError('--custom-address is empty', 'give the address as text, e.g. --custom-address "Park, Gate 3"');
  const locations = [
    ...opts.business.map((id) => ({ type: 'BUSINESS' as const, business: { id } })),
    ...opts.customAddress.map((formatted) => ({ type: 'CUSTOM' as const, custom: { address: { formatted } } })),
    ...(opts.customer ? [{ type: 'CUSTOMER' as const }] : []),
  ];
  if (locations.length === 0) {
    throw new UserError('give at least one location', 'use --business ID, --custom-address TEXT or --customer');
  }
  let action: Action | undefined;
  if (opts.removedSessions !== undefined) {
    action = choiceOf(opts.removedSessions, ACTIONS, '--removed-sessions') as Action;
  }
  if (action === 'MOVE_TO_LOCATION' && !opts.moveToBusiness) {
    throw new UserError('--removed-sessions MOVE_TO_LOCATION needs --move-to-business ID');
  }
  if (opts.moveToBusiness && action !== 'MOVE_TO_LOCATION') {
    throw new UserError('--move-to-business goes with --removed-sessions MOVE_TO_LOCATION');
  }
  const rule = locationsRule(action);
  const removed = action ? { action, ...(opts.moveToBusiness ? { moveToLocationOptions: { newLocation: { type: 'BUSINESS' as const, business: { id: opts.moveToBusiness } } } } : {}) } : undefined;
  const [{ runValueVerb }, { LOCATIONS_VERB }] = await Promise.all([import('../shared/one.js'), import('./shared/values.js')]);
  await runValueVerb(ctx, {
    verb: LOCATIONS_VERB,
    given: opts.id,
    to: () => ({ locations, ...(removed ? { removed } : {}) }),
    flags: opts,
    command: 'services locations set',
    one: (id) => ({
      rule,
      question: () => `Set ${locations.length} location(s) on service ${id()} and DELETE its sessions at the locations removed?`,
      already: () => `service ${id()} has these locations already`,
      outcome: (after: Service) => `Service ${id()} now has ${after.locations?.length ?? 0} location(s) (revision ${after.revision ?? '?'})`,
    }),
  });
}
