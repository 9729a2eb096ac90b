/**
 * `--notify [MESSAGE]` and `--notify-via CHANNELS`, declared once for every verb whose platform call carries
 * `participantNotification` (bookings create, cancel, confirm, decline, pending, reschedule; msb create, cancel,
 * confirm, decline, pending, reschedule; services delete; docs/wire.md §25). Without `--notify` the call says nothing about notifying, so
 * the platform tells nobody (its default, `notifyParticipants: false`). With it, the call carries
 * `{notifyParticipants: true, message?, metadata?: {channels}}` (the SDK's ParticipantNotification), which the
 * verb keeps in its journal's options as `notify: {message?, channels?}` so `--resume` sends the same.
 *
 * `sitectl undo` never notifies: the options of an inverse are built without `notify` (docs/wire.md §25).
 */
import type { Command } from 'commander';
import * as z from 'zod/mini';
import { UserError } from '../../core/errors.js';

/** The SDK's bound of the custom message (`V2ParticipantNotification.message` @maxLength 2000). */
export const MAX_NOTIFY_MESSAGE = 2000;

/** What the journal keeps of `--notify`: the message (if any) and the channels (`EMAIL`, `SMS`, `EMAIL, SMS`). */
export interface NotifyOption {
  message?: string;
  channels?: string;
}

/**
 * Declares `--notify [message]` and `--notify-via <channels>` on `cmd`.
 * @param who whom the platform notifies, for the help text (`the customer`, `the customers of its future bookings`)
 */
export function addNotifyFlags(cmd: Command, who = 'the customer'): Command {
  return cmd
    .option('--notify [message]', `have the platform notify ${who}, with this message if given (default: nobody is notified)`)
    .option('--notify-via <channels>', 'how the notification goes: email, sms or email,sms (default: the platform’s, e-mail)');
}

/**
 * The `notify` option of the flags, checked: `{}` without `--notify`.
 * @throws UserError (exit 2) for `--notify-via` without `--notify`, an unknown channel, or a message longer than
 *   {@link MAX_NOTIFY_MESSAGE} characters
 */
export function notifyOption(flags: object & { notify?: unknown; notifyVia?: unknown }): { notify?: NotifyOption } {
  if (flags.notify === undefined || flags.notify === false) {
    if (flags.notifyVia !== undefined) throw new UserError('--notify-via goes with --notify');
    return {};
  }
  const message = typeof flags.notify === 'string' ? flags.notify : undefined;
  if (message !== undefined && message.length > MAX_NOTIFY_MESSAGE) throw new UserError(`--notify: the message has ${message.length} characters; the platform takes at most ${MAX_NOTIFY_MESSAGE}`);
  let channels: string | undefined;
  if (flags.notifyVia !== undefined) {
    const given = String(flags.notifyVia)
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean);
    const bad = given.filter((c) => c !== 'email' && c !== 'sms');
    if (bad.length || given.length === 0) throw new UserError(`--notify-via takes email, sms or email,sms, got '${String(flags.notifyVia)}'`);
    channels = [...new Set(given)].map((c) => c.toUpperCase()).join(', ');
  }
  return { notify: { ...(message !== undefined && message !== '' ? { message } : {}), ...(channels ? { channels } : {}) } };
}

/** {@link NotifyOption} as a journal's options are read back (journalOptions, src/bulk/journal-read.ts). */
export const NOTIFY_OPTION = z.optional(z.object({ message: z.optional(z.string()), channels: z.optional(z.string()) }));

/** The request field (the SDK's ParticipantNotification). */
export type ParticipantNotification = { notifyParticipants: true; message?: string; metadata?: Record<string, string> };

/** The journal option as it was kept, or undefined when the run notifies nobody. */
function kept(options: Record<string, unknown>): NotifyOption | undefined {
  const n = options.notify;
  return n !== null && typeof n === 'object' ? (n as NotifyOption) : undefined;
}

/**
 * The request field of a verb's options: `{participantNotification: {notifyParticipants: true, message?,
 * metadata?}}`, or `{}` (nothing sent: the platform notifies nobody).
 */
export function participantNotification(options: Record<string, unknown>): { participantNotification?: ParticipantNotification } {
  const n = kept(options);
  if (!n) return {};
  return {
    participantNotification: {
      notifyParticipants: true,
      ...(n.message ? { message: n.message } : {}),
      ...(n.channels ? { metadata: { channels: n.channels } } : {}),
    },
  };
}

/** Who is told, said for a question or a notice: `their customers are notified by e-mail ("sorry")` or `nobody is notified`. */
export function notifySaying(options: Record<string, unknown>, whose = 'the customer is'): string {
  const n = kept(options);
  if (!n) return 'nobody is notified';
  const how = n.channels ? n.channels.toLowerCase().replace('email', 'e-mail').replace('sms', 'SMS').replace(', ', ' and ') : 'e-mail';
  return `${whose} notified by ${how}${n.message ? ` ("${n.message.length > 60 ? `${n.message.slice(0, 59)}…` : n.message}")` : ''}`;
}
