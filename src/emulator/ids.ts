/**
 * Ids the emulator derives rather than stores: a UUID-shaped id that depends only on its parts (a session of a
 * schedule at a start, a staff member's schedules, a booking's attendance), so the same parts always name the
 * same thing without a table of them.
 */
import { createHash } from 'node:crypto';

/** A UUID-shaped id (version nibble 5, variant `a`) of the SHA-1 of `parts` joined by `|`. */
export function stableId(...parts: string[]): string {
  const h = createHash('sha1').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
