// Runs the CLI from source through tsx, without a build: `npm run dev -- services list`.
import { run } from '../src/main.js';

process.exitCode = await run(process.argv.slice(2));
