/**
 * A member's fields from flags and a JSON file, checked against the family's request schemas before anything
 * is sent (a refused command changes nothing): `members create` and `members update`.
 */
import { type Command, Option } from 'commander';
import { safeParse } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { UserError } from '../../../core/errors.js';
import { collect } from '../../../core/filters.js';
import { readJsonSource } from '../../../core/input.js';
import type { IOStreams } from '../../../core/iostreams.js';
import { checkFileFields } from '../../shared/fields.js';
import { MEMBER_VIEW } from './view.js';

/** The flags that set a member's fields. */
export interface MemberFieldFlags {
  email?: string;
  firstName?: string;
  lastName?: string;
  nickname?: string;
  slug?: string;
  title?: string;
  phone?: string[];
  contactEmail?: string[];
  company?: string;
  jobTitle?: string;
  public?: boolean;
  private?: boolean;
  file?: string;
}

/**
 * Declares the member field flags on `cmd`. Without `slug` (`members update`: the slug has its own verb,
 * `members slug`) `--slug` is left out of the help and kept only so that using it points to that verb.
 */
export function addMemberFieldFlags(cmd: Command, { slug = true } = {}): Command {
  cmd
    .option('--email <address>', 'login e-mail')
    .option('--first-name <name>', "contact's first name")
    .option('--last-name <name>', "contact's last name")
    .option('--nickname <name>', 'profile name shown to others');
  const slugFlag = new Option('--slug <slug>', 'profile slug (lowercase letters, digits, hyphens; unique on the site)');
  cmd.addOption(slug ? slugFlag : slugFlag.hideHelp());
  return cmd
    .option('--title <text>', 'profile title')
    .option('--phone <phone>', 'contact phone (repeatable; replaces the list)', collect)
    .option('--contact-email <address>', 'contact e-mail (repeatable; replaces the list)', collect)
    .option('--company <name>', "contact's company")
    .option('--job-title <text>', "contact's job title")
    .option('--public', 'in the community (privacy PUBLIC)')
    .option('--private', 'not in the community (privacy PRIVATE)')
    .option('--file <path>', "member JSON (the member object, or {\"member\": ...}); '-' reads stdin; flags override it");
}

/** Fields of a member that the platform owns: dropped from a file made with `members get --json`. */
const SERVER_OWNED = ['id', 'contactId', 'status', 'activityStatus', 'loginEmailVerified', 'createdDate', 'updatedDate', 'lastLoginDate'];

/**
 * The member's fields: the file's (server-owned fields dropped), then each flag on top. The file's field names
 * are checked against `request` (the call's input schema) and the member schema (a file from `members get
 * --json` passes), unless `allowUnknown` (`--allow-unknown-fields`).
 * @throws UserError (exit 2) for an unreadable file, a file that is not a member object, a field name neither
 *   schema knows, or both --public and --private
 */
export async function memberFields(flags: MemberFieldFlags, stdin: IOStreams['stdin'], file: { request: $ZodType; allowUnknown?: boolean }): Promise<Record<string, unknown>> {
  let member: Record<string, unknown> = {};
  if (flags.file !== undefined) {
    const parsed = await readJsonSource('--file', flags.file, stdin);
    const inner = parsed && typeof parsed === 'object' && Object.hasOwn(parsed, 'member') ? (parsed as { member: unknown }).member : parsed;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw new UserError(`--file ${flags.file} must hold a member object`);
    checkFileFields([file.request, MEMBER_VIEW.schema], inner, `--file ${flags.file}`, file.allowUnknown);
    member = { ...(inner as Record<string, unknown>) };
    for (const key of SERVER_OWNED) delete member[key];
  }
  const contact: Record<string, unknown> = { ...(member.contact as Record<string, unknown> | undefined) };
  const profile: Record<string, unknown> = { ...(member.profile as Record<string, unknown> | undefined) };
  delete contact.contactId;
  if (flags.email !== undefined) member.loginEmail = flags.email;
  if (flags.firstName !== undefined) contact.firstName = flags.firstName;
  if (flags.lastName !== undefined) contact.lastName = flags.lastName;
  if (flags.phone !== undefined) contact.phones = flags.phone;
  if (flags.contactEmail !== undefined) contact.emails = flags.contactEmail;
  if (flags.company !== undefined) contact.company = flags.company;
  if (flags.jobTitle !== undefined) contact.jobTitle = flags.jobTitle;
  if (flags.nickname !== undefined) profile.nickname = flags.nickname;
  if (flags.slug !== undefined) profile.slug = flags.slug;
  if (flags.title !== undefined) profile.title = flags.title;
  if (flags.public && flags.private) throw new UserError('choose one of --public and --private');
  if (flags.public) member.privacyStatus = 'PUBLIC';
  if (flags.private) member.privacyStatus = 'PRIVATE';
  if (Object.keys(contact).length) member.contact = contact;
  else delete member.contact;
  if (Object.keys(profile).length) member.profile = profile;
  else delete member.profile;
  return member;
}

/** Flag names of the member's fields, for messages (`contact.phones` -> `--phone`). */
const FLAG_OF: Record<string, string> = {
  loginEmail: '--email',
  'contact.firstName': '--first-name',
  'contact.lastName': '--last-name',
  'contact.phones': '--phone',
  'contact.emails': '--contact-email',
  'contact.company': '--company',
  'contact.jobTitle': '--job-title',
  'profile.nickname': '--nickname',
  'profile.slug': '--slug',
  'profile.title': '--title',
};

/**
 * Checks `member` against the request schema of the call that will send it.
 * @throws UserError (exit 2) naming the first bad field (and its flag) and why
 */
export function checkMember(schema: $ZodType, member: Record<string, unknown>): void {
  const checked = safeParse(schema, member);
  if (checked.success) return;
  const issue = checked.error.issues[0]!;
  const path = issue.path.filter((p) => typeof p === 'string').join('.');
  const flag = FLAG_OF[path];
  const what = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
  throw new UserError(`${flag ?? path ?? 'member'}: ${what}`);
}
