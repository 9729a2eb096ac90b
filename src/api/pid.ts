/**
 * Whether a process runs, by its pid: the one check behind the local emulator's pid file (local/daemon.ts), the
 * seeding child's leftover files (emulator/seed/in-file.ts), a lock's holder (core/lock.ts) and a fan-out's
 * spilled plans (bulk/spill.ts). It imports
 * nothing, so the emulator, the CLI's side of it and core share this one implementation (as api/paths.ts).
 */

/**
 * True when a process with this pid runs on this machine: signal 0 is sent, which checks without delivering
 * anything. A process we may not signal (EPERM: another user's) runs too; any other refusal (ESRCH) means it does
 * not. Never throws.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
