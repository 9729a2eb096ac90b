/**
 * The flags of `staff create` and `staff update` (`--name`, `--email`, `--phone`, `--description`), checked
 * against the platform's bounds (SDK typings of Staff Members v1) before anything is sent.
 */
import type { Command } from 'commander';
import { MAX_STAFF_DESCRIPTION, MAX_STAFF_EMAIL, MAX_STAFF_NAME, MAX_STAFF_PHONE } from '../../../api/schemas/staff.js';
import { UserError } from '../../../core/errors.js';

export interface StaffFlags {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
}

/** Declares the staff fields on a command. */
export function addStaffFlags(cmd: Command): Command {
  return cmd
    .option('--name <name>', `full name (1-${MAX_STAFF_NAME} characters)`)
    .option('--email <email>', 'e-mail address ("" clears it on update)')
    .option('--phone <phone>', `phone number (at most ${MAX_STAFF_PHONE} characters; "" clears it on update)`)
    .option('--description <text>', `what the staff member does (at most ${MAX_STAFF_DESCRIPTION} characters)`);
}

function bounded(flag: string, value: string, max: number): string {
  if (value.length > max) throw new UserError(`${flag}: at most ${max} characters, got ${value.length}`);
  return value;
}

/**
 * The fields the flags give (an empty string clears a field on update).
 * @throws UserError (exit 2) for an empty or too long name, a bad e-mail, a too long phone or description
 */
export function staffFieldsOf(flags: StaffFlags): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (flags.name !== undefined) {
    const name = flags.name.trim();
    if (name === '') throw new UserError('--name: a staff member needs a name');
    out.name = bounded('--name', name, MAX_STAFF_NAME);
  }
  if (flags.email !== undefined) {
    if (flags.email !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(flags.email)) throw new UserError(`--email: '${flags.email}' is not an e-mail address`);
    out.email = flags.email === '' ? null : bounded('--email', flags.email, MAX_STAFF_EMAIL);
  }
  if (flags.phone !== undefined) out.phone = flags.phone === '' ? null : bounded('--phone', flags.phone, MAX_STAFF_PHONE);
  if (flags.description !== undefined) out.description = flags.description === '' ? null : bounded('--description', flags.description, MAX_STAFF_DESCRIPTION);
  return out;
}
