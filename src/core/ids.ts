/**
 * The one check of the ids and names a verb is given (docs/architecture.md "Safety rules"), before any request: an empty or blank value
 * (`services get ''`, `msb get ' '`, `--staff ''`) is bad input (exit 2), never sent (it would reach the
 * platform as a path without its id, or as "no condition"). Run for every verb by the program's pre-action hook
 * over the verb's arguments and its options that take an id or a reference (see {@link checkCommandInput}).
 */
import { UserError } from './errors.js';

/** Control characters (C0, DEL, C1): never part of an id or a name a user types. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `value` when it is a usable id or name: not empty, not only blanks, without control characters.
 * @param what how the user gave it, for the message: `<id>`, `--staff`
 * @throws UserError (exit 2) `<id> is empty` / `<id> has a control character`
 */
export function checkIdText(value: string, what: string): string {
  if (value.trim() === '') throw new UserError(`${what} is empty`, /\bids?\b/.test(what) ? 'give an id, or a unique prefix of one (4 characters or more)' : undefined);
  if (CONTROL.test(value)) throw new UserError(`${what} ${JSON.stringify(value)} has a control character`);
  return value;
}

/**
 * What an id is made of on the platform (UUIDs, and the ids of other systems with letters, digits, `-`, `_`, `.`
 * and `:`): an id given as `--service-id ../../etc` would be sent in a request path, where a separator names
 * another resource. Names are not held to it (a service may be called "Cut/Colour").
 */
const ID_SHAPE = /^[A-Za-z0-9_.:-]+$/;

/**
 * `value` when it has the shape of an id ({@link ID_SHAPE}, and no `..`).
 * @throws UserError (exit 2) naming the flag and the value
 */
export function checkIdShape(value: string, what: string): string {
  if (!ID_SHAPE.test(value) || value.includes('..')) throw new UserError(`${what} ${JSON.stringify(value)} is not an id`, 'an id holds letters, digits and - _ . : only (a unique prefix of one works too)');
  return value;
}

/** Arguments that are free text, not ids or names: an empty one means "none" to its verb. */
const FREE_TEXT_ARGUMENTS = new Set(['text', 'flags', 'path', 'method']);

/** Placeholders of options that take an id or a reference to an entity (`--staff <id>`, `--plan <plan>`). */
const REFERENCE_PLACEHOLDER = /<[^>]*\b(id|ids|member|plan|service|site|contact|buyer|business)\b[^>]*>/;
/**
 * Placeholders of options that take an id only (`--service-id <id>`, `--ids <ids>`), held to {@link ID_SHAPE}.
 * Positional `<id>` arguments are not: several nouns take a name there too (`plans get 'Gold Monthly'`), and
 * each is resolved by a query before any path is built from it.
 */
const ID_PLACEHOLDER = /<ids?>/;

/** The parts of a Commander command {@link checkCommandInput} reads (kept structural: core does not import Commander). */
export interface CommandInput {
  registeredArguments: ReadonlyArray<{ name(): string }>;
  processedArgs: readonly unknown[];
  options: ReadonlyArray<{ flags: string; long?: string; attributeName(): string }>;
  opts(): Record<string, unknown>;
}

/**
 * Checks every id and name a verb was given with {@link checkIdText}: each positional argument (but free text
 * such as `search [text]`), and each option whose placeholder names an id or an entity (`<id>`, `<plan>`,
 * `<service>`, `<member>`, `<site>`...), every value of a repeatable one; an option whose placeholder is `<id>`
 * or `<ids>` holds ids only ({@link checkIdShape}).
 * @throws UserError (exit 2) for the first empty, blank or misshapen one
 */
export function checkCommandInput(cmd: CommandInput): void {
  cmd.registeredArguments.forEach((arg, i) => {
    const name = arg.name();
    if (FREE_TEXT_ARGUMENTS.has(name)) return;
    const value = cmd.processedArgs[i];
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') checkIdText(v, `<${name}>`);
  });
  const values = cmd.opts();
  for (const option of cmd.options) {
    if (!REFERENCE_PLACEHOLDER.test(option.flags)) continue;
    const value = values[option.attributeName()];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string') continue;
      checkIdText(v, option.long ?? option.flags);
      // `--ids a,b` holds several, each an id.
      if (ID_PLACEHOLDER.test(option.flags)) for (const id of v.split(',').map((x) => x.trim()).filter(Boolean)) checkIdShape(id, option.long ?? option.flags);
    }
  }
}
