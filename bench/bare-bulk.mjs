// The whole-process baseline of the bulk benchmark (npm run bench section 2): what a hand-written script with
// undici does for `sitectl services update --filter {} --set description=...`: query every service by pages of
// 100, then send the same bulk update requests (chunks of 100, CONCURRENCY in flight), and exit. Run as its own
// process so its start-up is counted as sitectl's is. Environment: BARE_URL (emulator origin), BARE_KEY (admin
// API key), BARE_SITE (site id), BARE_CONCURRENCY (default 4), BARE_DESCRIPTION.
import { Agent } from 'undici';

const origin = process.env.BARE_URL;
const concurrency = Number(process.env.BARE_CONCURRENCY ?? 4);
const headers = { authorization: process.env.BARE_KEY, 'wix-site-id': process.env.BARE_SITE, 'content-type': 'application/json' };
const agent = new Agent({ connections: concurrency });

async function call(method, path, body) {
  const res = await agent.request({ origin, path, method, headers, body: JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const targets = [];
for (let offset = 0; ; offset += 100) {
  const page = await call('POST', '/_api/bookings/v2/services/query', {
    query: { paging: { limit: 100, offset }, sort: [{ fieldName: 'id', order: 'ASC' }] },
  });
  targets.push(...page.services);
  if (page.services.length < 100) break;
}
const chunks = [];
for (let i = 0; i < targets.length; i += 100) chunks.push(targets.slice(i, i + 100));
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++];
      await call('POST', '/bookings/v2/bulk/services/update', {
        services: chunk.map((s) => ({ service: { id: s.id, revision: s.revision, description: process.env.BARE_DESCRIPTION ?? 'bench bare' }, mask: 'description' })),
        returnEntity: false,
      });
    }
  }),
);
await agent.close();
process.stdout.write(`${targets.length}\n`);
