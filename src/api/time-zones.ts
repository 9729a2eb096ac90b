/**
 * Time zones as the platform names them: IANA names (`UTC`, `Europe/London`, `America/New_York`) in a booking's
 * `timezone`, a business location's `timeZone` and the availability calls' `timezone` (docs/wire.md
 * §11). Shared by the CLI (`--tz`) and the emulator (request checks).
 */

/** Zones already checked by {@link isTimeZone}, with the answer (a table of bookings asks once per row). */
const checkedZones = new Map<string, boolean>();

/**
 * True when `zone` is an IANA time zone this Node knows (`UTC`, `Europe/London`, ...). Never throws. The answer
 * is kept per name: making the formatter that checks it costs far more than the formatting it guards (a
 * dashboard pane of 5,000 bookings asked 5,000 times).
 */
export function isTimeZone(zone: string): boolean {
  const known = checkedZones.get(zone);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    ok = true;
  } catch {
    ok = false;
  }
  if (checkedZones.size < 1000) checkedZones.set(zone, ok);
  return ok;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * `instant` (epoch ms or a Date) on the clock of `zone`, for messages and labels: `2026-11-24 18:00 PST` (the
 * zone's short name as `en-US` spells it, else its offset such as `GMT+1`). An unknown zone falls back to UTC.
 */
export function formatWallClock(instant: number | Date, zone: string): string {
  const tz = isTimeZone(zone) ? zone : 'UTC';
  let f = wallClocks.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
    wallClocks.set(tz, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(instant instanceof Date ? instant : new Date(instant))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}
