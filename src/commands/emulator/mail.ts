/**
 * `sitectl emulator mail [--to ADDRESS] [--limit N] [--json]`: the emulator's outbox (docs/sign-in.md,
 * docs/manual/emulator.md "The outbox"): the e-mails sign-in sends (verification codes, recovery links), the codes
 * of an SMS or CALL sign-in factor (`channel` SMS or CALL, `to` the phone), and the
 * participant notifications a booking call asked for (`--notify`: who, on which channel, what message, for which
 * booking and action), oldest first, through the control plane (`GET /__emulator/mail`). `--json code` prints
 * what a script needs to finish a verification.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UserError } from '../../core/errors.js';
import { notice } from '../../core/log.js';
import { addFormatFlags, type Column, fieldsChecker, type FormatFlags, printRecords, resolveFormat } from '../../core/output.js';
import { emulatorRequest, ensureEmulator } from '../../local/daemon.js';
import { dataDirOf, numberFlag } from './shared.js';

interface MailRow {
  id: string;
  date: string;
  to: string;
  subject: string;
  text: string;
  code?: string;
  recoveryToken?: string;
  link?: string;
  site: string;
  /** EMAIL or SMS (participant notifications), SMS or CALL (a sign-in factor's code). */
  channel?: string;
  bookingId?: string;
  action?: string;
  contact?: { name?: string; email?: string; phone?: string };
  message?: string;
  multiServiceBookingId?: string;
  undeliverable?: string;
}

const COLUMNS: Column<MailRow>[] = [{ key: 'date' }, { key: 'channel' }, { key: 'to' }, { key: 'subject' }, { key: 'code' }, { key: 'text' }];

/** The fields `--json` may name. */
const FIELDS = ['id', 'date', 'to', 'subject', 'text', 'code', 'recoveryToken', 'link', 'site', 'channel', 'bookingId', 'action', 'contact', 'message', 'multiServiceBookingId', 'undeliverable'];

interface MailOptions extends FormatFlags {
  dataDir?: string;
  to?: string;
  limit?: string;
}

export function register(parent: Command, ctx: Context): void {
  addFormatFlags(
    parent
      .command('mail')
      .description('Show what the emulator would have sent: sign-in e-mails and SMS/call codes, and the notifications of --notify')
      .option('--data-dir <dir>', 'data dir of the emulator')
      .option('--to <address>', 'only mail to this address')
      .option('--limit <n>', 'the newest N (default 50, at most 1000)'),
  )
    .addHelpText('after', '\nExamples:\n  sitectl emulator mail --to ada@example.com\n  sitectl emulator mail --to ada@example.com --json code\n  sitectl emulator mail --json bookingId,action,channel,to,message')
    .action(async (o: MailOptions) => {
      await run(o, ctx);
    });
}

export async function run(o: MailOptions, ctx: Context): Promise<void> {
  const format = resolveFormat(o, fieldsChecker(FIELDS));
  const limit = numberFlag(o.limit, '--limit', 1, 1000, true) ?? 50;
  const dataDir = dataDirOf(o, ctx);
  const emu = await ensureEmulator(dataDir);
  if (emu.started) notice(ctx.io, `Started the local emulator at ${emu.url} (data in ${dataDir}); stop it with: ${ctx.bin} emulator stop`);
  const q = new URLSearchParams({ limit: String(limit), ...(o.to ? { to: o.to.trim() } : {}) });
  const reply = (await emulatorRequest(emu.url, emu, 'GET', `/__emulator/mail?${q}`).catch((err: unknown) => {
    throw new UserError(err instanceof Error ? err.message.replace(/^emulator replied \d+: /, '') : String(err), undefined, ExitCode.Failure);
  })) as { mail: MailRow[] };
  await printRecords(ctx.io, format, reply.mail, COLUMNS, { now: ctx.now(), empty: o.to ? `No mail to ${o.to.trim()} in the outbox.` : 'The outbox is empty.' });
}
