// Preloaded into a command under benchmark (NODE_OPTIONS=--import): on exit, writes the process's peak resident
// set size in KiB (process.resourceUsage().maxRSS) to the file named by BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
