/**
 * Time zones as the platform names them: IANA names (`UTC`, `Europe/London`, `America/New_York`) in a booking's
 * `timezone`, a business location's `timeZone` and the availability calls' `timezone` (docs/wire.md
 * §11). Shared by the CLI (`--tz`) and the emulator (request checks).
 */

/** True when `zone` is an IANA time zone this Node knows (`UTC`, `Europe/London`, ...). Never throws. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
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
