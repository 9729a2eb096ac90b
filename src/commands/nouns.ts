/**
 * The one list of nouns (docs/architecture.md "Layout and dependency direction"): each entry is a light header,
 * its name, the other words that name it, what it is for, what it offers, and a loader of its body. The program
 * (help, aliases, completion), `browse`, `history --noun` and the build's chunk groups read this list; a noun's
 * body (its verbs) is imported only when the noun runs, so start-up does not grow with the list.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Invocation } from './manifest.js';

/**
 * What every `src/commands/<noun>/index.ts` exports: adds the noun's verbs (or its own options and action) to
 * the noun's command, which the program made from the header (name, aliases, description). A noun with verbs
 * loads only the verb `inv` names (commands/manifest.ts).
 */
export interface NounModule {
  register(cmd: Command, ctx: Context, inv: Invocation): void | Promise<void>;
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
  load(): Promise<NounModule>;
}

/** Every noun, in the order the root help lists them. */
export const NOUNS: readonly NounHeader[] = [
  { name: 'services', aliases: ['service'], description: 'List, inspect, create and bulk-update services', browse: true, entities: ['services', 'booking policies'], load: () => import('./services/index.js') },
  { name: 'availability', aliases: ['avail'], description: 'Open slots of services, course places, back-to-back slots', load: () => import('./availability/index.js') },
  { name: 'bookings', aliases: ['booking'], description: 'List, create and confirm, decline, cancel or move bookings', browse: true, entities: ['bookings'], load: () => import('./bookings/index.js') },
  { name: 'msb', aliases: [], description: 'Multi-service bookings: several services booked together', entities: ['multi-service bookings'], load: () => import('./msb/index.js') },
  { name: 'staff', aliases: [], description: 'List, create, change and delete staff members; their working hours and users', browse: true, entities: ['staff members'], load: () => import('./staff/index.js') },
  { name: 'members', aliases: ['member'], description: 'List, approve, block, mute, update, delete and export site members', browse: true, entities: ['members'], load: () => import('./members/index.js') },
  { name: 'plans', aliases: ['plan'], description: 'List, create and change pricing plans (primary, visibility, archive)', browse: true, entities: ['plans'], load: () => import('./plans/index.js') },
  { name: 'orders', aliases: ['order'], description: 'Pricing plan orders: list, pause, resume, cancel, mark paid, postpone', browse: true, entities: ['orders'], load: () => import('./orders/index.js') },
  { name: 'checkout', aliases: [], description: 'Price, preview and buy pricing plans for members', load: () => import('./checkout/index.js') },
  { name: 'browse', aliases: [], description: 'Browse any noun with a list in a live table', load: () => import('./browse/index.js') },
  { name: 'dashboard', aliases: [], description: "Live operator dashboard: the coming days' bookings by staff, bookings and members awaiting you, orders needing attention, events", load: () => import('./dashboard/index.js') },
  { name: 'events', aliases: [], description: "The emulator's domain events of the site: list, follow, filter by type, forward to a webhook", load: () => import('./events/index.js') },
  { name: 'history', aliases: [], description: 'The changes made with sitectl, newest first: what, where, how many, and whether undone', load: () => import('./history/index.js') },
  { name: 'undo', aliases: [], description: 'Undo a change made with sitectl (see sitectl history): preview, confirm, apply the inverse', load: () => import('./undo/index.js') },
  { name: 'sites', aliases: [], description: 'The sites of the account the API key reaches', load: () => import('./sites/index.js') },
  { name: 'api', aliases: [], description: 'Make an authenticated request to any platform endpoint and print the JSON reply', load: () => import('./api/index.js') },
  { name: 'profile', aliases: [], description: 'Manage profiles: which site and credentials to use', load: () => import('./profile/index.js') },
  { name: 'login', aliases: [], description: 'Sign in: in a browser (PKCE), with a device code, with e-mail and password, or as an app (CI)', load: () => import('./login/index.js') },
  { name: 'logout', aliases: [], description: "Sign out: revoke the member's tokens and remove every token of the profile (of one site with --site)", load: () => import('./logout/index.js') },
  { name: 'auth', aliases: [], description: 'Sign-in status, access tokens, registration, password recovery, e-mail verification', load: () => import('./auth/index.js') },
  { name: 'emulator', aliases: [], description: 'Run the local emulator of the platform', load: () => import('./emulator/index.js') },
];

/** The noun a word names (its name or one of its aliases, in any case), or undefined. */
export function nounNamed(word: string | undefined): NounHeader | undefined {
  if (word === undefined) return undefined;
  const w = word.toLowerCase();
  return NOUNS.find((n) => n.name === w || n.aliases.includes(w));
}

/** The nouns that can be browsed (`browse NOUN`). */
export function browsableNouns(): NounHeader[] {
  return NOUNS.filter((n) => n.browse);
}

/** The entities changes are journaled under, as `history --noun` takes them. */
export function journaledEntities(): string[] {
  return [...new Set(NOUNS.flatMap((n) => n.entities ?? []))];
}
