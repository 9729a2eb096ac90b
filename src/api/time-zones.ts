/**
 * Time zones as the platform names them: IANA names (`UTC`, `Europe/London`, `America/New_York`) in a booking's
 * `timezone`, a business location's `timeZone` and the availability calls' `timezone` (platform-wire.md
 * section 11). Shared by the CLI (`--tz`) and the emulator (request checks).
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
