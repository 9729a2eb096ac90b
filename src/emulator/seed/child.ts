/**
 * The seeding child (bundled as `dist/emulator-seed.js`; seed/in-file.ts `seedNewStoreApart` forks it): takes one
 * SeedJob over IPC, seeds it into a file of its own, writes each progress line to stdout as it goes (a synchronous
 * write: the seed does not yield), answers `done` or the seed's error message over IPC, and exits. It stops when
 * its parent goes (the IPC channel closes), leaving only its seeding file.
 */
import { writeSync } from 'node:fs';
import { seedIntoFile, type SeedJob, type SeedMessage } from './in-file.js';

const send = (m: SeedMessage) => new Promise<void>((resolve) => (process.connected ? process.send!(m, undefined, undefined, () => resolve()) : resolve()));

const parent = process.ppid;
process.once('disconnect', () => process.exit(1));
process.once('message', (job: SeedJob) => {
  void (async () => {
    try {
      // A parent killed meanwhile (kill -9): the next progress line fails (EPIPE), and the finished file is not
      // linked as the store (a reparented child has another parent pid).
      seedIntoFile(job, (line) => writeSync(1, `${line.replace(/\n/g, ' ')}\n`), () => process.ppid === parent);
      await send({ done: true });
    } catch (err) {
      await send({ error: err instanceof Error ? err.message : String(err) });
    }
    if (process.connected) process.disconnect();
  })();
});
