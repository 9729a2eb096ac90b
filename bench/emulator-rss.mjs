#!/usr/bin/env node
// The emulator's memory at a real business's size (issue target: RSS <= 300 MB after seeding a million members by
// itself, and after a reset to 100k services). Run after a build (`npx rolldown -c rolldown.config.ts`):
//   node bench/emulator-rss.mjs            both parts
//   RSS_PARTS=members|services|cli node bench/emulator-rss.mjs
// Options: RSS_MEMBERS (default 1000000), RSS_SERVICES (default 100000). Prints the server's VmRSS and VmHWM (MiB,
// from /proc/PID/status) after each step, and each step's wall time (noisy on a shared machine), then PASS/MISS.
// "cli": `emulator reset --members RSS_MEMBERS` with no emulator running, the CLI's peak RSS (bench/maxrss.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'sitectl.js');
const MEMBERS = Number(process.env.RSS_MEMBERS ?? 1_000_000);
const SERVICES = Number(process.env.RSS_SERVICES ?? 100_000);
const PARTS = (process.env.RSS_PARTS ?? 'members,services,cli').split(',');
const tmp = mkdtempSync(join(tmpdir(), 'sitectl-rss-'));
const env = { ...process.env, SITECTL_CONFIG_DIR: join(tmp, 'config'), SITECTL_STATE_DIR: join(tmp, 'state'), NO_COLOR: '1', CI: '1' };
const MB = 1.048576;
const verdicts = [];

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

async function waitFor(predicate, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (predicate()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function start(dir, args) {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--data-dir', dir, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const pidFile = join(dir, 'emulator.pid.json');
  await waitFor(() => existsSync(pidFile) || child.exitCode !== null, 30 * 60_000, 'the emulator');
  if (child.exitCode !== null) throw new Error(`emulator exited: ${stderr}`);
  const { url } = JSON.parse(readFileSync(pidFile, 'utf8'));
  const { apiKey, siteId } = JSON.parse(readFileSync(join(dir, 'admin-key.json'), 'utf8'));
  return { child, url, apiKey, siteId, pool: new Pool(new URL(url).origin, { connections: 1, headersTimeout: 0, bodyTimeout: 0 }) };
}

async function stop(emu) {
  await emu.pool.close();
  emu.child.kill('SIGTERM');
  await waitFor(() => emu.child.exitCode !== null || emu.child.signalCode !== null, 30_000, 'emulator stop').catch(() => emu.child.kill('SIGKILL'));
}

async function call(emu, path, body) {
  const res = await emu.pool.request({
    path,
    method: 'POST',
    headers: { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Runs `fn`, prints its time and the server's RSS after it. */
async function step(emu, label, fn) {
  const t = performance.now();
  const out = fn ? await fn() : undefined;
  const ms = performance.now() - t;
  const m = rssOf(emu.child.pid);
  console.log(`  ${label.padEnd(58)} ${fn ? `${ms.toFixed(1).padStart(9)} ms` : ' '.repeat(12)}  RSS ${m.rss.toFixed(0).padStart(5)} MiB  peak ${m.hwm.toFixed(0).padStart(5)} MiB`);
  return out;
}

function verdict(label, mib, limitMb) {
  const line = `${label}: ${(mib * MB).toFixed(0)} MB (target <= ${limitMb} MB) ${mib * MB <= limitMb ? 'PASS' : 'MISS'}`;
  verdicts.push(line);
  console.log(`  ${line}`);
}

async function members() {
  const dir = join(tmp, 'members');
  console.log(`\n${MEMBERS} members: \`emulator start --members ${MEMBERS} --bookings 0\` on a new data dir (the server seeds it)`);
  const t = performance.now();
  const emu = await start(dir, ['--members', String(MEMBERS), '--bookings', '0']);
  console.log(`  started and seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  try {
    await step(emu, 'after the seed');
    const q = (query, search) => call(emu, '/members/v1/members/query', { query, fieldsets: ['FULL'], ...(search ? { search } : {}) });
    const sorted = (offset) => ({ filter: { status: 'APPROVED' }, sorting: [{ fieldName: 'contact.lastName', order: 'ASC' }], paging: { limit: 50, offset } });
    const first = await step(emu, 'first page (APPROVED by last name)', () => q(sorted(0)));
    const total = first.metadata.total;
    const deep = Math.floor((total * 0.9) / 50) * 50;
    await step(emu, `sorted page at offset ${deep} (cold)`, () => q(sorted(deep)));
    await step(emu, `sorted page at offset ${deep} again`, () => q(sorted(deep)));
    const all = (offset) => ({ paging: { limit: 50, offset } });
    const plainDeep = Math.floor((MEMBERS * 0.729) / 50) * 50;
    await step(emu, `unsorted page at offset ${plainDeep} (cold)`, () => q(all(plainDeep)));
    await step(emu, `unsorted page at offset ${plainDeep} again`, () => q(all(plainDeep)));
    await step(emu, `unsorted page at offset ${plainDeep + 50} (next)`, () => q(all(plainDeep + 50)));
    const byId = (offset) => ({ sorting: [{ fieldName: 'id', order: 'ASC' }], paging: { limit: 50, offset } });
    await step(emu, `by id, page at offset ${plainDeep} (cold)`, () => q(byId(plainDeep)));
    await step(emu, 'search "smith" first page', () => q(all(0), { expression: 'smith' }));
    const after = await step(emu, 'end');
    verdict(`${MEMBERS} members seeded by the server: RSS after the queries`, rssOf(emu.child.pid).rss, 300);
    return after;
  } finally {
    await stop(emu);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function services() {
  const dir = join(tmp, 'services');
  console.log(`\nReset of a running emulator to ${SERVICES} services (POST /__emulator/reset {size: ${SERVICES}})`);
  const emu = await start(dir, ['--seed', 'demo']);
  try {
    await step(emu, 'after start (demo)');
    await step(emu, `reset to ${SERVICES} services`, () => call(emu, '/__emulator/reset', { seed: 'demo', size: SERVICES }));
    const path = '/_api/bookings/v2/services';
    await step(emu, 'query: first page of 100 by name', () => call(emu, `${path}/query`, { query: { sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 100 } } }));
    await step(emu, `query: page at offset ${SERVICES - 1000}`, () => call(emu, `${path}/query`, { query: { paging: { limit: 100, offset: SERVICES - 1000 } } }));
    const s1 = await step(emu, 'search: first page of 100', () => call(emu, `${path}/search`, { search: { cursorPaging: { limit: 100 } } }));
    await step(emu, 'search: next page (cursor)', () => call(emu, `${path}/search`, { search: { cursorPaging: { limit: 100, cursor: s1.pagingMetadata.cursors.next } } }));
    await step(emu, 'search: text "yoga", sorted by name', () =>
      call(emu, `${path}/search`, { search: { search: { expression: 'yoga' }, sort: [{ fieldName: 'name', order: 'ASC' }], cursorPaging: { limit: 100 } } }));
    await step(emu, 'search: filter type=CLASS with aggregation by type', () =>
      call(emu, `${path}/search`, { search: { filter: { type: 'CLASS' }, aggregations: [{ name: 'byType', fieldPath: 'type', type: 'VALUE' }], cursorPaging: { limit: 100 } } }));
    await step(emu, 'end');
    verdict(`reset to ${SERVICES} services: RSS after the queries and searches`, rssOf(emu.child.pid).rss, 300);
  } finally {
    await stop(emu);
    rmSync(dir, { recursive: true, force: true });
  }
}

function cli() {
  const dir = join(tmp, 'cli');
  console.log(`\n\`emulator reset --members ${MEMBERS} --bookings 0 --yes\` with no emulator running: the CLI's peak RSS`);
  const rssFile = join(tmp, 'cli.rss');
  const run = (args) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, 'emulator', 'reset', '--data-dir', dir, ...args, '--yes'], {
      env: { ...env, NODE_OPTIONS: `--import=${join(root, 'bench', 'maxrss.mjs')}`, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`reset exited ${r.status}: ${r.stderr}`);
    return { ms: performance.now() - t, mib: Number(readFileSync(rssFile, 'utf8')) / 1024 };
  };
  run(['--seed', 'empty']);
  const m = run(['--seed', 'demo', '--members', String(MEMBERS), '--bookings', '0']);
  console.log(`  reset in ${(m.ms / 1000).toFixed(1)} s, CLI peak RSS ${m.mib.toFixed(0)} MiB`);
  verdict(`emulator reset --members ${MEMBERS} without a server: the CLI's peak RSS`, m.mib, 300);
  rmSync(dir, { recursive: true, force: true });
}

try {
  if (PARTS.includes('members')) await members();
  if (PARTS.includes('services')) await services();
  if (PARTS.includes('cli')) cli();
  console.log(`\n${verdicts.join('\n')}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
