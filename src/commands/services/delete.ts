/**
 * `sitectl services delete`: one service (`delete ID`, confirmed) or many (`--filter | --where | --ids |
 * --ids-file`, or `--resume JOURNAL`) through the entity bulk engine, in chunks of 100 (docs/wire.md §14, §25;
 * the shared delete verb of docs/architecture.md "Layout and dependency direction"). The id forms send
 * `bulkDeleteServices`; a filter selection sends the platform's `bulkDeleteServicesByFilter`, its filter the
 * chunk's planned ids (`{"id":{"$in":[...]}}`) so a service created after the plan is never deleted, each item
 * then settled by reading it back.
 *
 * The delete options of the platform ride on every form: `--preserve-future-sessions`
 * (`preserveFutureSessionsWithParticipants`: sessions with participants are kept; by default every future
 * session is canceled, and with it its bookings) and `--notify [MESSAGE]` (`participantNotification`: the
 * customers of the canceled bookings are told). `sitectl undo` re-creates a deleted service from its
 * before-image (a new id) but cannot bring back the bookings the delete canceled: the question and a notice
 * before the plan say so.
 */
import { MAX_BULK_SERVICES, serviceOps } from '../../api/services.js';
import { filterJobSender } from '../../bulk/actions.js';
import { deleteVerb } from '../shared/delete.js';
import { addNotifyFlags, notifyOption, notifySaying, participantNotification } from '../shared/notify.js';
import { deleteServicesSender } from './shared/bulk.js';
import { SERVICE_VIEW } from './shared/view.js';

export type { DeleteOptions } from '../shared/delete.js';

/** The platform's delete options of the verb's options (as the journal keeps them). */
function deleteOptions(o: Record<string, unknown>) {
  return { ...(o.preserveFutureSessions === true ? { preserveFutureSessionsWithParticipants: true } : {}), ...participantNotification(o) };
}

export const { register, run } = deleteVerb({
  view: SERVICE_VIEW,
  command: 'services delete',
  examples: [
    'sitectl services delete 4f1c --yes',
    'sitectl services delete --where hidden=true --dry-run',
    'sitectl services delete 4f1c --notify "The class is discontinued; your payment is refunded" --yes',
    'sitectl services delete --ids-file old-ids.txt --preserve-future-sessions --yes --json',
  ],
  flags: (cmd) =>
    addNotifyFlags(
      cmd.option('--preserve-future-sessions', 'keep the future sessions that have participants, and their bookings (default: future sessions and their bookings are canceled)'),
      'the customers of the bookings it cancels',
    ),
  options: (o) => ({ ...(o.preserveFutureSessions ? { preserveFutureSessions: true } : {}), ...notifyOption(o) }),
  consequence: (o) =>
    o.preserveFutureSessions === true
      ? 'Future sessions with participants are kept, with their bookings; sitectl undo re-creates deleted services with new ids.'
      : `Their future bookings are canceled and ${notifySaying(o, 'their customers are')}; sitectl undo re-creates deleted services with new ids but cannot bring back the canceled bookings.`,
  send: (api, o, args) =>
    args.filter ? filterJobSender(api, serviceOps.bulkDeleteServicesByFilter, (filter) => ({ filter, ...deleteOptions(o) })) : deleteServicesSender(api, deleteOptions(o)),
  chunkSize: MAX_BULK_SERVICES,
});
