// The start-up floor of the chosen stack, for `npm run bench` section 1: the least a Commander CLI that lists
// services over undici can do. It parses `list --json` with Commander, loads the same undici modules as sitectl
// (the built dist/transport-*.js chunk, with HTTP/2 already made lazy), sends the same query to the emulator and
// prints the services as JSON. No reply schemas, profiles, context or output formats: whatever sitectl's own
// `services list --json` costs above this is sitectl's; what this costs above `node -e 0` is the stack's.
// Environment: FLOOR_URL (emulator origin), FLOOR_KEY (admin API key), FLOOR_SITE (site id).
import { setFlagsFromString } from 'node:v8';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

setFlagsFromString('--liftoff-only');
const { Command } = await import('commander');
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const program = new Command('floor');
program
  .command('list')
  .option('--json')
  .action(async () => {
    const transport = readdirSync(dist).find((f) => /^transport-[\w-]+\.js$/.test(f));
    const { EnvHttpProxyAgent, request } = await import(pathToFileURL(join(dist, transport)).href);
    const agent = new EnvHttpProxyAgent();
    const res = await request.call(agent, {
      origin: process.env.FLOOR_URL,
      path: '/_api/bookings/v2/services/query',
      method: 'POST',
      headers: { authorization: process.env.FLOOR_KEY, 'wix-site-id': process.env.FLOOR_SITE, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { paging: { limit: 50 } } }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`floor: ${res.statusCode} ${text.slice(0, 200)}`);
    process.stdout.write(`${JSON.stringify(JSON.parse(text).services, null, 2)}\n`);
    await agent.close();
  });
await program.parseAsync();
