/**
 * The one list of nouns (docs/architecture.md "Layout and dependency direction"): each entry is a light header,
 * its name, the other words that name it, what it is for and what it offers. The program (help, aliases,
 * completion), `browse`, `history --noun` and the build's chunk groups read it; commands/nouns.ts adds each noun's
 * loader, so a body (its verbs) is imported only when the noun runs and start-up does not grow with the list.
 * Data and types only, importing nothing of the nouns: any module may read it without closing a cycle.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { NounUndo } from './shared/inverses.js';
import type { WorkLists } from './shared/work-lists.js';

/**
 * What every `src/commands/<noun>/index.ts` exports: adds the noun's verbs (or its own options and action) to
 * the noun's command, which the program made from the header (name, aliases, description). A noun with verbs
 * loads only the verb `inv` names (commands/manifest.ts).
 */
export interface NounModule {
  register(cmd: Command, ctx: Context, inv: Invocation): void | Promise<void>;
  /**
   * How `sitectl undo` takes back the noun's changes, by each entity of its header's `entities`
   * (commands/shared/inverses.ts): loaded only when a change of it is undone.
   */
  undo?(): Promise<NounUndo>;
  /**
   * The noun's panes on the dashboard (commands/shared/work-lists.ts), for a noun whose header says `dashboard`:
   * loaded only when the dashboard runs.
   */
  workLists?(): Promise<WorkLists>;
}

/** One noun as the program lists it before its body is loaded. */
export interface NounHeader {
  name: string;
  /** Other words that name it (`member` for `members`): each works wherever the name does. */
  aliases: readonly string[];
  description: string;
  /** It has a `list` verb, so it can be browsed in a live table (`browse NOUN` = `NOUN list --interactive`). */
  browse?: boolean;
  /** The entities its writes are journaled under (`history --noun`), as its changes name them. */
  entities?: readonly string[];
  /** It puts work lists on the dashboard (its module's `workLists`), in the list's order. */
  dashboard?: boolean;
}

/** A noun's header with the loader of its body (commands/nouns.ts makes them). */
export interface LoadableNoun extends NounHeader {
  load(): Promise<NounModule>;
}

/**
 * Which verb the command line runs: `verb` is the word after the noun; `all` loads every verb; `nouns` is the list
 * with its loaders, for a noun that runs other nouns (`browse`).
 */
export interface Invocation {
  verb?: string;
  all?: boolean;
  nouns?: readonly LoadableNoun[];
}

/** Every noun, in the order the root help lists them. */
export const NOUN_HEADERS: readonly NounHeader[] = [
  { name: 'services', aliases: ['service'], description: 'List, inspect, create and bulk-update services', browse: true, entities: ['services', 'booking policies', 'categories'] },
  { name: 'availability', aliases: ['avail'], description: 'Open slots of services, course places, back-to-back slots' },
  { name: 'bookings', aliases: ['booking'], description: 'List, create and confirm, decline, cancel or move bookings', browse: true, entities: ['bookings'], dashboard: true },
  { name: 'msb', aliases: [], description: 'Multi-service bookings: several services booked together', entities: ['multi-service bookings'] },
  { name: 'attendance', aliases: [], description: 'Who came: list attendance, mark bookings attended or not (one or a whole session)', browse: true, entities: ['attendance'] },
  { name: 'staff', aliases: [], description: 'List, create, change and delete staff members; their working hours and users', browse: true, entities: ['staff members'] },
  { name: 'members', aliases: ['member'], description: 'List, approve, block, mute, update, delete and export site members', browse: true, entities: ['members'], dashboard: true },
  { name: 'plans', aliases: ['plan'], description: 'List, create and change pricing plans (primary, visibility, archive)', browse: true, entities: ['plans'] },
  { name: 'orders', aliases: ['order'], description: 'Pricing plan orders: list, pause, resume, cancel, mark paid, postpone', browse: true, entities: ['orders'], dashboard: true },
  { name: 'checkout', aliases: [], description: 'Price, preview and buy pricing plans for members' },
  { name: 'browse', aliases: [], description: 'Browse any noun with a list in a live table' },
  { name: 'dashboard', aliases: [], description: "Live operator dashboard: the coming days' bookings by staff, bookings and members awaiting you, orders needing attention, events" },
  { name: 'events', aliases: [], description: "The emulator's domain events of the site: list, follow, filter by type, forward to a webhook" },
  { name: 'history', aliases: [], description: 'The changes made with sitectl, newest first: what, where, how many, and whether undone' },
  { name: 'undo', aliases: [], description: 'Undo a change made with sitectl (see sitectl history): preview, confirm, apply the inverse' },
  { name: 'sites', aliases: [], description: 'The sites of the account the API key reaches' },
  { name: 'api', aliases: [], description: 'Make an authenticated request to any platform endpoint and print the JSON reply' },
  { name: 'profile', aliases: [], description: 'Manage profiles: which site and credentials to use' },
  { name: 'login', aliases: [], description: 'Sign in: in a browser (PKCE), with a device code, with e-mail and password, or as an app (CI)' },
  { name: 'logout', aliases: [], description: "Sign out: revoke the member's tokens and remove every token of the profile (of one site with --site)" },
  { name: 'auth', aliases: [], description: 'Sign-in status, access tokens, registration, password recovery, e-mail verification' },
  { name: 'emulator', aliases: [], description: 'Run the local emulator of the platform' },
];

/** The noun of `nouns` a word names (its name or one of its aliases, in any case), or undefined. */
export function nounNamed<N extends NounHeader>(nouns: readonly N[], word: string | undefined): N | undefined {
  if (word === undefined) return undefined;
  const w = word.toLowerCase();
  return nouns.find((n) => n.name === w || n.aliases.includes(w));
}

/** The nouns that can be browsed (`browse NOUN`). */
export function browsableNouns(): NounHeader[] {
  return NOUN_HEADERS.filter((n) => n.browse);
}

/** The entities changes are journaled under, as `history --noun` takes them. */
export function journaledEntities(): string[] {
  return [...new Set(NOUN_HEADERS.flatMap((n) => n.entities ?? []))];
}
