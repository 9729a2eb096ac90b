#!/usr/bin/env node
// Benchmarks for sitectl (docs/runtime.md §3 and the targets each section prints as PASS or MISS).
// Run with `npm run bench` (builds first). Options: BENCH_SIZE (services for the bulk run, default 10000),
// BENCH_RUNS (startup repetitions, default 15), BENCH_READ_SECONDS (default 3), BENCH_LATENCY_MS and
// BENCH_LATENCY_SIZE (the bulk comparison again with that much added latency per request, as a hosted API has:
// default 20 ms on 1,000 services), BENCH_AVAIL_RUNS (availability queries timed, default 20), BENCH_BOOKINGS
// (comma-separated booking counts for the listing memory run, default 2000,10000,100000), BENCH_MEMBERS
// (comma-separated member counts for the export memory run, default 10000,100000), BENCH_FANOUT_SITES (sites the
// demo catalogue is cloned to, default 20), BENCH_SCALE_MEMBERS (comma-separated member counts for the
// members-at-scale run, default 10000,100000,1000000), BENCH_ONLY=members (run only the members-at-scale section), BENCH_ONLY=startup (only start-up and endless-input),
// BENCH_SCALE_BOOKINGS (bookings of the large site in the booking-writes run, default 100000), BENCH_ONLY=bookings (only
// booking writes on the demo site and on that large one, the busy-week seed, and the dashboard and bookings
// browser on that week in tmux), BENCH_ONLY=fanout (only the fan-out
// under a rate limit: BENCH_PACED_SITES sites, default 100 (0 skips it: the fleet's memory is then a ratio to 100 sites without a limit), under BENCH_PACED_LIMIT requests/s, default 50, with
// Retry-After: 2; then BENCH_FLEET_SITES sites, default 500, unlimited, for peak memory; 0 skips it), BENCH_STREAM_COUNTS
// (comma-separated counts of the exports, list --all and bulk update memory run, default 1000,10000,100000),
// BENCH_STREAM_RUNS (runs per figure there, the best kept, default 2), BENCH_STREAM_PARTS (of that run:
// bulk,members,bookings, the default), BENCH_ONLY=stream (only that run).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, Pool } from 'undici';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'sitectl.js');
const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const READ_SECONDS = Number(process.env.BENCH_READ_SECONDS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const LATENCY_SIZE = Number(process.env.BENCH_LATENCY_SIZE ?? 1000);
const AVAIL_RUNS = Number(process.env.BENCH_AVAIL_RUNS ?? 20);
const BOOKING_COUNTS = (process.env.BENCH_BOOKINGS ?? '2000,10000,100000').split(',').map(Number);
const MEMBER_COUNTS = (process.env.BENCH_MEMBERS ?? '10000,100000').split(',').map(Number);
const FANOUT_SITES = Number(process.env.BENCH_FANOUT_SITES ?? 20);
const SCALE_MEMBERS = (process.env.BENCH_SCALE_MEMBERS ?? '10000,100000,1000000').split(',').map(Number);
const SCALE_BOOKINGS = Number(process.env.BENCH_SCALE_BOOKINGS ?? 100_000);
const STREAM_COUNTS = (process.env.BENCH_STREAM_COUNTS ?? '1000,10000,100000').split(',').map(Number);
const STREAM_RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 2);
const STREAM_PARTS = (process.env.BENCH_STREAM_PARTS ?? 'bulk,members,bookings').split(',');
const ONLY = process.env.BENCH_ONLY;
const PACED_SITES = Number(process.env.BENCH_PACED_SITES ?? 100);
const PACED_LIMIT = Number(process.env.BENCH_PACED_LIMIT ?? 50);
const FLEET_SITES = Number(process.env.BENCH_FLEET_SITES ?? 500);
const CONCURRENCY = 4;

const tmp = mkdtempSync(join(tmpdir(), 'sitectl-bench-'));
const dataDir = join(tmp, 'emulator');
const baseEnv = {
  ...process.env,
  SITECTL_CONFIG_DIR: join(tmp, 'config'),
  SITECTL_STATE_DIR: join(tmp, 'state'),
  SITECTL_DATA_DIR: join(tmp, 'data'),
  NO_COLOR: '1',
  CI: '1',
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n, d = 1) => n.toFixed(d);
const verdicts = [];
/**
 * Prints one target line: the figure, the goal and PASS or MISS; kept for the summary at the end.
 * @param op '<=' (default: the figure must not exceed the goal) or '>='
 */
function target(label, value, goal, op = '<=', unit = '') {
  const pass = op === '<=' ? value <= goal : value >= goal;
  const line = `${label}: ${fmt(value, value < 10 ? 2 : 0)}${unit} (target ${op} ${goal}${unit}) ${pass ? 'PASS' : 'MISS'}`;
  verdicts.push(line);
  console.log(`  ${line}`);
}

function timeCommand(args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return ms;
}

/** Runs `sitectl services update --filter {}` over every service and returns its wall time in ms. */
function cliBulkUpdate(env, journalName) {
  return timeCommand(
    [bin, 'services', 'update', '--filter', '{}', '--set', 'description=bench cli', '--yes', '--concurrency', String(CONCURRENCY),
      '--journal', join(tmp, journalName)],
    env,
  );
}

async function waitFor(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = predicate();
    if (v) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function startEmulator(size) {
  const child = spawn(
    process.execPath,
    [bin, 'emulator', 'start', '--port', '0', '--data-dir', dataDir, '--seed', 'demo', '--size', String(size)],
    { env: baseEnv, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const pidFile = join(dataDir, 'emulator.pid.json');
  await waitFor(() => existsSync(pidFile) || child.exitCode !== null, 120_000, 'the emulator').catch((e) => {
    throw new Error(`${e.message}\n${stderr}`);
  });
  if (child.exitCode !== null) throw new Error(`emulator exited: ${stderr}`);
  const { url } = JSON.parse(readFileSync(pidFile, 'utf8'));
  const { apiKey, siteId } = JSON.parse(readFileSync(join(dataDir, 'admin-key.json'), 'utf8'));
  return { child, url, apiKey, siteId };
}

function headersFor(emu) {
  return { authorization: emu.apiKey, 'wix-site-id': emu.siteId, 'content-type': 'application/json' };
}

async function call(dispatcher, emu, method, path, body) {
  const origin = new URL(emu.url).origin;
  const res = await dispatcher.request({
    origin,
    path,
    method,
    headers: headersFor(emu),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function reset(emu, size, extra = {}) {
  const agent = new Agent();
  await call(agent, emu, 'POST', '/__emulator/reset', { seed: 'demo', size, ...extra });
  await agent.close();
}

async function setFaults(emu, faults) {
  const agent = new Agent();
  await call(agent, emu, 'PUT', '/__emulator/faults', faults);
  await agent.close();
}

async function patchLoop(emu) {
  const single = new Pool(new URL(emu.url).origin, { connections: 1 });
  const targets = await allServices(single, emu);
  for (const s of targets) {
    await call(single, emu, 'PATCH', `/_api/bookings/v2/services/${s.id}`, {
      service: { id: s.id, revision: s.revision, description: 'bench patch' },
      mask: 'description',
    });
  }
  await single.close();
  return targets;
}

async function allServices(dispatcher, emu) {
  const out = [];
  for (let offset = 0; ; offset += 100) {
    const page = await call(dispatcher, emu, 'POST', '/_api/bookings/v2/services/query', {
      query: { paging: { limit: 100, offset }, sort: [{ fieldName: 'id', order: 'ASC' }] },
    });
    out.push(...page.services);
    if (page.services.length < 100) return out;
  }
}

/**
 * Runs a CLI command with its stdout to /dev/null; returns its wall time (ms) and peak RSS (KiB), read by the
 * preload bench/maxrss.mjs inside the command's own process.
 */
function measureCommand(args, env) {
  const rssFile = join(tmp, `rss-${process.hrtime.bigint()}`);
  const nodeOptions = `${env.NODE_OPTIONS ?? ''} --import ${JSON.stringify(join(root, 'bench', 'maxrss.mjs'))}`.trim();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], {
    env: { ...env, NODE_OPTIONS: nodeOptions, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`sitectl ${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return { ms, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
}

/** VmRSS and VmHWM (peak) of a process, in MiB, from /proc/PID/status. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/**
 * CPU seconds (user + system) used so far by this process's finished children, from /proc/self/stat (cutime,
 * cstime in clock ticks of 1/100 s): what a seed cost whatever else the machine was running.
 */
function childrenCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Starts the emulator on an existing data dir (no seed), in its own process. */
async function startOn(dir) {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--data-dir', dir], { env: baseEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const pidFile = join(dir, 'emulator.pid.json');
  await waitFor(() => existsSync(pidFile) || child.exitCode !== null, 120_000, 'the emulator').catch((e) => {
    throw new Error(`${e.message}\n${stderr}`);
  });
  if (child.exitCode !== null) throw new Error(`emulator exited: ${stderr}`);
  const { url } = JSON.parse(readFileSync(pidFile, 'utf8'));
  const { apiKey, siteId } = JSON.parse(readFileSync(join(dir, 'admin-key.json'), 'utf8'));
  return { child, url, apiKey, siteId };
}

async function stopEmulator(emu) {
  emu.child.kill('SIGTERM');
  await waitFor(() => emu.child.exitCode !== null || emu.child.signalCode !== null, 30_000, 'emulator stop').catch(() => emu.child.kill('SIGKILL'));
}

const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/**
 * The members emulator at 10k, 100k and 1M members (docs/members.md "At scale"): each count seeded by `emulator
 * reset` in its own process, then served by a fresh emulator whose RSS is read from /proc after the queries.
 * "First page": APPROVED members sorted by last name, 50 FULL, median of 10 after a cold first call. "Deep page":
 * the page at 90 % of the matches by offset (cold: the rows before it are skipped in the index), then the page
 * after it, which the emulator seeks from where the previous page ended (its keyset cursor).
 */
async function membersAtScale() {
  console.log('\nMembers emulator at scale (seeded by `sitectl emulator reset --members N`, served by a fresh `emulator start`)');
  const rows = [];
  for (const count of SCALE_MEMBERS) {
    const dir = join(tmp, `members-${count}`);
    const t0 = performance.now();
    const cpu0 = childrenCpuSeconds();
    timeCommand([bin, 'emulator', 'reset', '--data-dir', dir, '--seed', 'demo', '--members', String(count), '--bookings', '0', '--yes'], baseEnv);
    const seedMs = performance.now() - t0;
    const seedCpu = childrenCpuSeconds() - cpu0;
    const emu = await startOn(dir);
    try {
      const idle = rssOf(emu.child.pid);
      const p = new Pool(new URL(emu.url).origin, { connections: 1 });
      const query = (offset) =>
        call(p, emu, 'POST', '/members/v1/members/query', {
          query: { filter: { status: 'APPROVED' }, sorting: [{ fieldName: 'contact.lastName', order: 'ASC' }], paging: { limit: 50, offset } },
          fieldsets: ['FULL'],
        });
      let t = performance.now();
      const first = await query(0);
      const coldMs = performance.now() - t;
      const firstMs = [];
      for (let i = 0; i < 10; i++) {
        t = performance.now();
        await query(0);
        firstMs.push(performance.now() - t);
      }
      const deep = Math.floor((first.metadata.total * 0.9) / 50) * 50;
      t = performance.now();
      const deepPage = await query(deep);
      const deepOffsetMs = performance.now() - t;
      t = performance.now();
      const next = await query(deep + deepPage.members.length);
      const deepSeekMs = performance.now() - t;
      if (next.members.length === 0) throw new Error('the page after the deep page is empty');
      const ids = first.members.map((m) => m.id);
      // Steady state: the emulator's and this client's request paths are compiled by the time a long-running
      // emulator serves its users; the first second of reads (~4,000 of them) is not counted.
      for (const warm = performance.now() + 1000; performance.now() < warm; ) await call(p, emu, 'GET', `/members/v1/members/${ids[0]}?fieldsets=FULL`);
      let n = 0;
      const end = performance.now() + READ_SECONDS * 1000;
      while (performance.now() < end) {
        await call(p, emu, 'GET', `/members/v1/members/${ids[n % ids.length]}?fieldsets=FULL`);
        n++;
      }
      await p.close();
      const after = rssOf(emu.child.pid);
      const row = { count, seedMs, seedCpu, coldMs, firstMs: median(firstMs), deepOffsetMs, deepSeekMs, readsPerS: n / READ_SECONDS, idle, after, total: first.metadata.total };
      rows.push(row);
      console.log(
        `  ${String(count).padStart(7)} members: seeded in ${fmt(seedMs / 1000)} s (${fmt(seedCpu)} s of CPU); first page ${fmt(row.firstMs)} ms (cold ${fmt(coldMs)} ms); deep page at offset ${deep} of ${row.total}: ${fmt(deepOffsetMs)} ms by offset, next page by the seek cursor ${fmt(deepSeekMs)} ms; ${fmt(row.readsPerS, 0)} reads/s on one connection (after 1 s of warm-up); RSS ${fmt(idle.rss)} MiB idle, ${fmt(after.rss)} MiB after the queries (peak ${fmt(after.hwm)} MiB)`,
      );
    } finally {
      await stopEmulator(emu);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log('\n  growth        ' + rows.map((r) => String(r.count).padStart(10)).join(''));
  const line = (label, f) => console.log(`  ${label.padEnd(14)}${rows.map((r) => f(r).padStart(10)).join('')}`);
  line('seed s', (r) => fmt(r.seedMs / 1000));
  line('seed CPU s', (r) => fmt(r.seedCpu));
  line('first page ms', (r) => fmt(r.firstMs));
  line('deep offset ms', (r) => fmt(r.deepOffsetMs));
  line('deep seek ms', (r) => fmt(r.deepSeekMs));
  line('reads/s', (r) => fmt(r.readsPerS, 0));
  line('RSS MiB', (r) => fmt(r.after.rss));
  line('peak RSS MiB', (r) => fmt(r.after.hwm));
  const at = (c) => rows.find((r) => r.count === c);
  // Target lines in this section's own words, kept for the run's summary too.
  const scaleTarget = (label, ok, figure) => {
    const line = `${label}: ${figure} ${verdict(ok)}`;
    verdicts.push(line);
    console.log(`  ${line}`);
  };
  const million = at(1_000_000);
  const hundred = at(100_000);
  console.log('');
  if (million) {
    scaleTarget('1,000,000 members: filtered, sorted first page <= 100 ms', million.firstMs <= 100, `${fmt(million.firstMs)} ms`);
    scaleTarget('1,000,000 members: deep page by cursor <= 100 ms', million.deepSeekMs <= 100, `${fmt(million.deepSeekMs)} ms (the same page by a cold offset: ${fmt(million.deepOffsetMs)} ms)`);
    scaleTarget('1,000,000 members: emulator RSS <= 300 MB', million.after.rss * 1.048576 <= 300, `${fmt(million.after.rss * 1.048576)} MB`);
    scaleTarget('1,000,000 members seeded in < 2 min', million.seedMs < 120_000, `${fmt(million.seedMs / 1000)} s wall, ${fmt(million.seedCpu)} s of CPU (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs)`);
  }
  if (hundred) scaleTarget('100,000 members: emulator RSS <= 150 MB', hundred.after.rss * 1.048576 <= 150, `${fmt(hundred.after.rss * 1.048576)} MB`);
  const slowest = Math.min(...rows.map((r) => r.readsPerS));
  scaleTarget('reads on one connection >= 4,000/s (GET member by id, every count)', slowest >= 4000, `${fmt(slowest, 0)}/s at the slowest`);
}

/**
 * Free appointment slots of the next `days` days from tomorrow, bookable, at most one per staff member and
 * time (no two overlap, buffers included): what `count` bookings can be made of without a refusal.
 */
async function freeSlots(p, emu, count, days = 28) {
  const services = (await allServices(p, emu)).filter((s) => s.type === 'APPOINTMENT' && (s.staffMemberIds ?? []).length > 0);
  const from = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
  const to = new Date(from.getTime() + days * 86_400_000);
  const held = new Map(); // staff id -> [start, end] ms, buffer included
  const picks = [];
  const entries = [];
  for (const s of services) {
    const reply = await call(p, emu, 'POST', '/_api/availability-calendar/v1/availability/query', {
      query: { filter: { serviceId: [s.id], startDate: from.toISOString(), endDate: to.toISOString(), bookable: true } },
    });
    const buffer = (s.schedule?.availabilityConstraints?.timeBetweenSessions ?? 0) * 60_000;
    for (const e of reply.availabilityEntries) entries.push({ e, buffer });
  }
  // Spread over the days and services: a fixed stride through the entries sorted by start.
  entries.sort((a, b) => Date.parse(a.e.slot.startDate) - Date.parse(b.e.slot.startDate));
  const stride = Math.max(1, Math.floor(entries.length / (count * 3)));
  for (let pass = 0; pass < stride && picks.length < count; pass++) {
    for (let i = pass; i < entries.length && picks.length < count; i += stride) {
      const { e, buffer } = entries[i];
      const staff = e.slot.resource?.id;
      const start = Date.parse(e.slot.startDate);
      const end = Date.parse(e.slot.endDate) + buffer;
      const list = held.get(staff) ?? [];
      if (list.some(([s, f]) => s < end && f > start)) continue;
      list.push([start, end]);
      held.set(staff, list);
      picks.push(e.slot);
    }
  }
  if (picks.length < count) throw new Error(`only ${picks.length} free slots of the ${count} needed in the next ${days} days`);
  return picks;
}

const bookingOf = (slot, i) => ({
  bookedEntity: { slot: { serviceId: slot.serviceId, startDate: slot.startDate, resource: { id: slot.resource.id } } },
  contactDetails: { firstName: 'Bench', lastName: `Writer ${i}`, email: `bench.${i}@example.com` },
});

/**
 * Booking writes on the demo site and on a site of 100,000 bookings (200 staff): 200 bookings by `sitectl
 * bookings create --file` (as the CLI sends them: 40 per bulk request), then 200 more straight to the bulk create
 * call (5 requests of 40, one connection), each on free slots found beforehand. Then the busy-week seed: time, and
 * the bookings it places in the next 7 days.
 */
async function bookingsAtScale() {
  console.log(`\nBooking writes as the site grows (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs)`);
  const N = 200;
  const sites = [
    { label: 'demo site (500 bookings, 8 staff)', args: [] },
    { label: `site of ${SCALE_BOOKINGS} bookings, 200 staff`, args: ['--bookings', String(SCALE_BOOKINGS), '--staff', '200'] },
  ];
  const rows = [];
  for (const site of sites) {
    const dir = join(tmp, `bookings-${rows.length}`);
    let t = performance.now();
    timeCommand([bin, 'emulator', 'reset', '--data-dir', dir, '--seed', 'demo', ...site.args, '--yes'], baseEnv);
    const seedMs = performance.now() - t;
    const emu = await startOn(dir);
    try {
      const env = { ...baseEnv, SITECTL_BASE_URL: emu.url, SITECTL_SITE_ID: emu.siteId, SITECTL_API_KEY: emu.apiKey };
      const p = new Pool(new URL(emu.url).origin, { connections: 1 });
      const slots = await freeSlots(p, emu, 2 * N);
      const file = join(tmp, `bookings-${rows.length}.ndjson`);
      writeFileSync(file, slots.slice(0, N).map((s, i) => JSON.stringify(bookingOf(s, i))).join('\n') + '\n');
      const cli = measureCommand(['bookings', 'create', '--file', file, '--yes', '--json'], env);
      const rest = slots.slice(N);
      t = performance.now();
      for (let i = 0; i < rest.length; i += 40) {
        const reply = await call(p, emu, 'POST', '/_api/bookings-service/v2/bulk/bookings/create', {
          createBookingsInfo: rest.slice(i, i + 40).map((s, k) => ({ booking: bookingOf(s, N + i + k) })),
        });
        if (reply.bulkActionMetadata.totalFailures) throw new Error(`bulk create refused ${reply.bulkActionMetadata.totalFailures}: ${JSON.stringify(reply.results.find((r) => !r.itemMetadata.success))}`);
      }
      const apiMs = performance.now() - t;
      await p.close();
      const row = { label: site.label, seedMs, cliMs: cli.ms, apiMs };
      rows.push(row);
      console.log(`  ${site.label}: seeded in ${fmt(seedMs / 1000)} s; bookings create --file of ${N}: ${fmt(cli.ms, 0)} ms (${fmt(N / (cli.ms / 1000), 1)}/s); bulk create of ${N} (5 requests): ${fmt(apiMs, 0)} ms (${fmt(N / (apiMs / 1000), 1)}/s)`);
    } finally {
      await stopEmulator(emu);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [demo, big] = rows;
  target(`bookings create --file of ${N}: ${SCALE_BOOKINGS}-booking site / demo site (x slower)`, big.cliMs / demo.cliMs, 2);
  target(`bulk create of ${N}: ${SCALE_BOOKINGS}-booking site / demo site (x slower)`, big.apiMs / demo.apiMs, 2);

  // The busy week: 200 staff, the next 7 days filled to 90 % of their appointment time, every class full.
  const dir = join(tmp, 'busy-week');
  const t = performance.now();
  const cpu0 = childrenCpuSeconds();
  const r = spawnSync(process.execPath, [bin, 'emulator', 'reset', '--data-dir', dir, '--seed', 'demo', '--staff', '200', '--busy-week', '--yes'], { env: baseEnv, encoding: 'utf8' });
  const busyMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`emulator reset --busy-week exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const told = /busy week: .*/.exec(r.stderr)?.[0] ?? '(no busy-week line)';
  // Counted in the store itself: active bookings starting in the 7 days from the seed hour.
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(join(dir, 'store.sqlite'), { readOnly: true });
  const base = Date.parse(db.prepare("SELECT value FROM meta WHERE key = 'seededAt'").get().value);
  const week = db
    .prepare(
      `SELECT json_extract(doc, '$.bookedEntity.tags[0]') AS tag, COUNT(*) AS n, SUM(json_extract(doc, '$.totalParticipants')) AS people FROM docs
       WHERE kind = 'bookings' AND json_extract(doc, '$.status') IN ('CREATED', 'CONFIRMED', 'PENDING')
       AND json_extract(doc, '$.startDate') >= ? AND json_extract(doc, '$.startDate') < ? GROUP BY tag`,
    )
    .all(new Date(base).toISOString(), new Date(base + 7 * 86_400_000).toISOString());
  db.close();
  const count = (tag) => week.find((w) => w.tag === tag) ?? { n: 0, people: 0 };
  console.log(
    `  emulator reset --staff 200 --busy-week: ${fmt(busyMs / 1000)} s (${fmt(childrenCpuSeconds() - cpu0)} s of CPU); in the next 7 days: ${count('INDIVIDUAL').n} appointments, ${count('GROUP').n} class bookings (${count('GROUP').people} people), ${count('COURSE').n} course bookings\n  the seed says: ${told}`,
  );
  target('busy-week seed, 200 staff (s)', busyMs / 1000, 30, '<=', ' s');
  const fill = Number(/(\d+) % of the staff/.exec(told)?.[1] ?? 0);
  target("busy week: share of the staff's appointment time booked (%)", fill, 85, '>=', ' %');

  // The front desk on that week: the dashboard and the bookings browser served from the busy-week store.
  const emu = await startOn(dir);
  try {
    await interactiveUi({ ...baseEnv, SITECTL_BASE_URL: emu.url, SITECTL_SITE_ID: emu.siteId, SITECTL_API_KEY: emu.apiKey }, 'busy week');
  } finally {
    await stopEmulator(emu);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The interactive UI in a real terminal (tmux, 120x40, the screen polled every ~5 ms; docs/architecture.md
 * "Interactive views"): for `dashboard` and `browse bookings` against the emulator `env` points at, the time from
 * process start to rows on screen (median of 5) and from a key press (j) to the redrawn cursor (median of 20),
 * each printed as a target (1000 ms, 100 ms) named with `site`. Skipped without tmux; a screen that never comes
 * is a MISS line, not the end of the run.
 */
async function interactiveUi(env, site) {
  if (spawnSync('tmux', ['-V']).status !== 0) {
    console.log(`\nInteractive UI (${site}): skipped (tmux is not installed)`);
    return;
  }
  console.log(`\nInteractive UI in tmux (120x40, ${site}, warm emulator; screen polled every ~5 ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs)`);
  const socket = `sitectl-bench-${process.pid}`;
  const tmux = (...a) => spawnSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const uiEnv = { ...env, TERM: 'xterm-256color' };
  delete uiEnv.CI;
  delete uiEnv.NO_COLOR;
  const quote = (v) => `'${String(v).replace(/'/g, `'\\''`)}'`;
  const start = (name, args) => {
    const assignments = Object.entries(uiEnv).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${quote(v)}`);
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `env -i ${assignments.join(' ')} ${quote(process.execPath)} ${quote(bin)} ${args.map(quote).join(' ')}; sleep 600`);
  };
  const screenUntil = async (name, re, timeoutMs = 20_000) => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const text = tmux('capture-pane', '-p', '-t', name).stdout ?? '';
      if (re.test(text)) return text;
      if (performance.now() > deadline) throw new Error(`${name}: the screen never showed ${re}`);
      await sleep(5);
    }
  };
  const cursorLine = (text) => text.split('\n').findIndex((l) => l.startsWith('>'));
  // CPU ms (user + system, ticks of 1/100 s) the session's sitectl process has used so far, from /proc: its share
  // of a first paint whatever else the machine runs. Undefined where /proc is not.
  const cpuMsOf = (name) => {
    try {
      const shell = tmux('list-panes', '-t', name, '-F', '#{pane_pid}').stdout.trim();
      const pid = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/)[0];
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return undefined;
    }
  };
  try {
    // A session that outlives the others, so killing one never stops the server while the next starts.
    tmux('new-session', '-d', '-s', 'hold', 'sleep 600');
    for (const [label, args, ready] of [
      // The first pane's tab is drawn [selected], whatever the pane's name.
      ['sitectl dashboard', ['dashboard'], /^ *\[[^\]\n]+ \d+\]│[\s\S]*^> /m],
      ['sitectl browse bookings', ['browse', 'bookings'], /^> /m],
    ]) {
      const paints = [];
      const cpus = [];
      for (let i = 0; i < 5; i++) {
        const name = `paint${i}`;
        const t = performance.now();
        start(name, args);
        await screenUntil(name, ready);
        paints.push(performance.now() - t);
        const cpu = cpuMsOf(name);
        if (cpu !== undefined) cpus.push(cpu);
        tmux('kill-session', '-t', name);
      }
      const cpuNote = cpus.length ? ` (the CLI's CPU by then: ${fmt(median(cpus), 0)} ms)` : '';
      console.log(`  ${label.padEnd(26)} first paint (process start to rows on screen), median of 5: ${fmt(median(paints), 0)} ms${cpuNote}`);
      target(`${label} first paint, ${site} (median)`, median(paints), 1000, '<=', ' ms');
      start('keys', args);
      await screenUntil('keys', ready);
      const keys = [];
      for (let i = 0; i < 20; i++) {
        const before = cursorLine(tmux('capture-pane', '-p', '-t', 'keys').stdout);
        const t = performance.now();
        tmux('send-keys', '-t', 'keys', 'j');
        for (;;) {
          const now = cursorLine(tmux('capture-pane', '-p', '-t', 'keys').stdout);
          if (now !== before) break;
          if (performance.now() - t > 5000) throw new Error(`${label}: the cursor never moved`);
        }
        keys.push(performance.now() - t);
      }
      tmux('kill-session', '-t', 'keys');
      const sorted = [...keys].sort((a, b) => a - b);
      console.log(`  ${label.padEnd(26)} key press (j) to redrawn cursor over 20 presses: median ${fmt(median(keys), 0)} ms, worst ${fmt(sorted[sorted.length - 1], 0)} ms`);
      target(`${label} key press to redraw, ${site} (median)`, median(keys), 100, '<=', ' ms');
    }
  } catch (e) {
    const line = `interactive UI (${site}): not measured: ${e.message.split('\n')[0]} MISS`;
    verdicts.push(line);
    console.log(`  ${line}`);
  } finally {
    tmux('kill-server');
  }
}

/**
 * Fan-out under the platform's kind of limit (docs/wire.md §7): `services clone --filter {}` of the demo
 * catalogue (60 services) to PACED_SITES new sites while the emulator answers 429 with Retry-After: 2 above
 * PACED_LIMIT requests a second (counted over all its requests, as the issue measured it). The limit's minimum is the
 * requests the emulator accepted divided by the limit; the target is 1.2x that. Then FLEET_SITES sites without a
 * limit: the CLI's and the emulator's peak RSS (VmHWM), beside the paced run's, to see memory stay flat in the
 * number of sites. Every site must end with the 60 services, none doubled.
 */
async function fanOut() {
  const dir = join(tmp, 'fanout');
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--data-dir', dir, '--seed', 'demo', '--size', '60', '--bookings', '0', '--members', '0'], { env: baseEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const pidFile = join(dir, 'emulator.pid.json');
  await waitFor(() => existsSync(pidFile) || child.exitCode !== null, 120_000, 'the emulator').catch((e) => {
    throw new Error(`${e.message}\n${stderr}`);
  });
  const { url } = JSON.parse(readFileSync(pidFile, 'utf8'));
  const { apiKey, siteId } = JSON.parse(readFileSync(join(dir, 'admin-key.json'), 'utf8'));
  const emu = { child, url, apiKey, siteId };
  const env = { ...baseEnv, SITECTL_BASE_URL: url, SITECTL_SITE_ID: siteId, SITECTL_API_KEY: apiKey };
  const control = new Agent();
  try {
    const catalogue = await allServices(control, emu);
    const run = async (n, faults) => {
      const sites = [];
      for (let i = 1; i <= n; i++) sites.push((await call(control, emu, 'POST', '/__emulator/sites', { name: `Fleet ${n}-${i}` })).site.id);
      await setFaults(emu, faults);
      const before = rssOf(child.pid).hwm;
      const cmd = measureCommand(['services', 'clone', ...sites.flatMap((id) => ['--to-site', id]), '--filter', '{}', '--yes', '--json'], env);
      const { counted } = await call(control, emu, 'GET', '/__emulator/faults');
      await setFaults(emu, { rateLimitPerSec: 0 });
      const state = await call(control, emu, 'GET', '/__emulator/state');
      const counts = new Map(state.sites.map((s) => [s.id, s.counts?.services ?? 0]));
      const wrong = sites.filter((id) => counts.get(id) !== catalogue.length);
      if (wrong.length) throw new Error(`${wrong.length} of ${n} sites do not hold the ${catalogue.length} services (e.g. ${wrong[0]}: ${counts.get(wrong[0])})`);
      return { ...cmd, counted, emuHwm: rssOf(child.pid).hwm, emuBefore: before };
    };
    // The fleet's memory figure is a ratio to a 100-site run's (the paced default): the paced run when it runs,
    // else (BENCH_PACED_SITES=0: the fleet part alone) the same 100 sites without a limit.
    if (!(PACED_SITES >= 0)) throw new Error(`BENCH_PACED_SITES must be 0 or more (got ${process.env.BENCH_PACED_SITES})`);
    if (PACED_SITES === 0 && FLEET_SITES === 0) throw new Error('BENCH_PACED_SITES=0 and BENCH_FLEET_SITES=0 leave nothing to run');
    let base;
    if (PACED_SITES > 0) {
      console.log(`\nFan-out: services clone --filter {} (${catalogue.length} services) to ${PACED_SITES} sites under a limit of ${PACED_LIMIT} requests/s (all requests), Retry-After: 2`);
      const paced = await run(PACED_SITES, { rateLimitPerSec: PACED_LIMIT, rateLimitScope: 'all', retryAfterSec: 2, latencyMs: 0 });
      const accepted = paced.counted.requests - paced.counted.throttled;
      const minimumMs = (accepted / PACED_LIMIT) * 1000;
      console.log(`  ${fmt(paced.ms / 1000, 2)} s; ${paced.counted.requests} requests, ${paced.counted.throttled} answered 429; the limit's minimum for the ${accepted} accepted: ${fmt(minimumMs / 1000, 2)} s; CLI peak RSS ${fmt(paced.rssKiB / 1024)} MiB; every site holds the ${catalogue.length} services`);
      target(`fan-out to ${PACED_SITES} sites under ${PACED_LIMIT} req/s: time / the limit's minimum`, paced.ms / minimumMs, 1.2);
      base = { ...paced, sites: PACED_SITES, how: 'paced' };
    }
    if (FLEET_SITES > 0) {
      if (!base) {
        const sites = 100;
        console.log(`\nFan-out to ${sites} sites, no limit (the base of the memory ratio; BENCH_PACED_SITES=0 skipped the paced run)`);
        const r = await run(sites, { rateLimitPerSec: 0, latencyMs: 0 });
        console.log(`  ${fmt(r.ms / 1000, 2)} s, ${r.counted.requests} requests; CLI peak RSS ${fmt(r.rssKiB / 1024)} MiB; emulator peak RSS ${fmt(r.emuHwm)} MiB`);
        base = { ...r, sites, how: 'unlimited' };
      }
      console.log(`\nFan-out to ${FLEET_SITES} sites, no limit (peak memory)`);
      const fleet = await run(FLEET_SITES, { rateLimitPerSec: 0, latencyMs: 0 });
      console.log(`  ${fmt(fleet.ms / 1000, 2)} s, ${fleet.counted.requests} requests (${fmt(fleet.ms / fleet.counted.requests, 2)} ms each; ${fmt(base.ms / base.counted.requests, 2)} ms ${base.how}); CLI peak RSS ${fmt(fleet.rssKiB / 1024)} MiB (${base.sites} sites: ${fmt(base.rssKiB / 1024)} MiB); emulator peak RSS ${fmt(fleet.emuHwm)} MiB (before the run ${fmt(fleet.emuBefore)} MiB; after the ${base.sites}-site run ${fmt(base.emuHwm)} MiB)`);
      target(`fan-out CLI peak RSS, ${FLEET_SITES} / ${base.sites} sites`, fleet.rssKiB / base.rssKiB, 1.2);
    }
  } finally {
    await control.close();
    await stopEmulator(emu);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Exports, `list --all` and a bulk update at 1k / 10k / 100k items: `members export` and
 * `bookings export` against the matching `list --all --ndjson` (time per item; the largest count within 1.3x of
 * the middle one's per-item time, each export within 1.2x of its list), and the peak RSS of the export, the list
 * and `services update --filter {}` (largest / smallest count within 1.2x). Each figure is the better of
 * BENCH_STREAM_RUNS runs (default 2): the machine's noise only ever adds.
 */
async function streamingAtScale(emu, cliEnv) {
  const counts = STREAM_COUNTS;
  const best = (args) => {
    let out;
    for (let i = 0; i < STREAM_RUNS; i++) {
      const r = measureCommand(args, cliEnv);
      out = out ? { ms: Math.min(out.ms, r.ms), rssKiB: Math.min(out.rssKiB, r.rssKiB) } : r;
    }
    return out;
  };
  const mib = (kib) => kib / 1024;
  console.log(`\nservices update --filter {} and services list --all --ndjson: peak RSS (best of ${STREAM_RUNS})`);
  const bulk = [];
  for (const count of STREAM_PARTS.includes('bulk') ? counts : []) {
    const runs = [];
    for (let i = 0; i < STREAM_RUNS; i++) {
      await reset(emu, count, { bookings: 0, members: 0 });
      runs.push(measureCommand(['services', 'update', '--filter', '{}', '--set', `description=bench stream ${i}`, '--yes', '--concurrency', String(CONCURRENCY), '--journal', join(tmp, `stream-${count}-${i}.ndjson`)], cliEnv));
    }
    const update = { ms: Math.min(...runs.map((r) => r.ms)), rssKiB: Math.min(...runs.map((r) => r.rssKiB)) };
    const list = best(['services', 'list', '--all', '--ndjson']);
    bulk.push({ count, update, list });
    console.log(`  ${String(count).padStart(6)} services: update ${fmt(update.ms, 0).padStart(6)} ms, peak RSS ${fmt(mib(update.rssKiB))} MiB; list --all ${fmt(list.ms, 0)} ms, peak RSS ${fmt(mib(list.rssKiB))} MiB`);
  }
  if (bulk.length >= 2) {
    const ratio = (xs) => Math.max(...xs) / Math.min(...xs);
    target('services update --filter {} peak RSS, largest / smallest count', ratio(bulk.map((r) => r.update.rssKiB)), 1.2);
    target('services list --all peak RSS, largest / smallest count', ratio(bulk.map((r) => r.list.rssKiB)), 1.2);
  }
  for (const noun of ['members', 'bookings'].filter((p) => STREAM_PARTS.includes(p))) {
    console.log(`\n${noun} export --ndjson and ${noun} list --all --ndjson (stdout to /dev/null, best of ${STREAM_RUNS})`);
    const rows = [];
    for (const count of counts) {
      const t0 = performance.now();
      await reset(emu, 60, { bookings: noun === 'bookings' ? count : 0, members: noun === 'members' ? count : 0 });
      const seedMs = performance.now() - t0;
      // One pass unmeasured first: right after a reset the emulator's store is cold (and checkpointing), which
      // would be charged to whichever command ran first.
      measureCommand([noun, 'list', '--all', '--ndjson'], cliEnv);
      const exp = best([noun, 'export', '--ndjson']);
      const list = best([noun, 'list', '--all', '--ndjson']);
      rows.push({ count, exp, list });
      console.log(
        `  ${String(count).padStart(6)} ${noun}: export ${fmt(exp.ms, 0).padStart(6)} ms (${fmt((exp.ms * 1000) / count, 1)} µs/item, ${fmt(mib(exp.rssKiB))} MiB), list --all ${fmt(list.ms, 0).padStart(6)} ms (${fmt((list.ms * 1000) / count, 1)} µs/item, ${fmt(mib(list.rssKiB))} MiB), export / list ${fmt(exp.ms / list.ms, 2)} x (seeded in ${fmt(seedMs, 0)} ms)`,
      );
    }
    if (rows.length >= 2) {
      const [mid, last] = [rows[rows.length - 2], rows[rows.length - 1]];
      target(`${noun} export per item, ${last.count} / ${mid.count}`, last.exp.ms / last.count / (mid.exp.ms / mid.count), 1.3);
      for (const r of rows) target(`${noun} export / list --all --ndjson at ${r.count}`, r.exp.ms / r.list.ms, 1.2);
      const ratio = (xs) => Math.max(...xs) / Math.min(...xs);
      target(`${noun} export peak RSS, largest / smallest count`, ratio(rows.map((r) => r.exp.rssKiB)), 1.2);
      target(`${noun} list --all peak RSS, largest / smallest count`, ratio(rows.map((r) => r.list.rssKiB)), 1.2);
    }
  }
}

async function main() {
  console.log(`sitectl benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  if (ONLY === 'members' || ONLY === 'bookings' || ONLY === 'fanout') {
    try {
      await (ONLY === 'members' ? membersAtScale() : ONLY === 'fanout' ? fanOut() : bookingsAtScale());
      console.log(`\nTargets (node ${process.version})`);
      for (const line of verdicts) console.log(`  ${line}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    return;
  }
  const emu = await startEmulator(60);
  const cliEnv = { ...baseEnv, SITECTL_BASE_URL: emu.url, SITECTL_SITE_ID: emu.siteId, SITECTL_API_KEY: emu.apiKey };
  try {
    if (ONLY === 'stream') {
      await streamingAtScale(emu, cliEnv);
      console.log(`\nTargets (node ${process.version})`);
      for (const line of verdicts) console.log(`  ${line}`);
      return;
    }
    // 1. Startup, interleaved so machine noise hits every command alike.
    // The floor (bench/floor.mjs): Commander + the same undici modules + the same query, printed as JSON, and
    // nothing of sitectl's own; what it costs over `node -e 0` is the stack's, the rest is sitectl's.
    const floorEnv = { ...cliEnv, FLOOR_URL: new URL(emu.url).origin, FLOOR_KEY: emu.apiKey, FLOOR_SITE: emu.siteId };
    const cmds = {
      'node -e 0': ['-e', '0'],
      'sitectl --version': [bin, '--version'],
      'sitectl services list --json': [bin, 'services', 'list', '--json'],
      'floor: commander+undici list': [join(root, 'bench', 'floor.mjs'), 'list', '--json'],
    };
    const times = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
    for (const args of Object.values(cmds)) timeCommand(args, floorEnv); // warm the page cache and compile cache
    for (let i = 0; i < RUNS; i++) for (const [k, args] of Object.entries(cmds)) times[k].push(timeCommand(args, floorEnv));
    const base = median(times['node -e 0']);
    const floor = median(times['floor: commander+undici list']);
    console.log(`\nStartup (median of ${RUNS} runs, interleaved, warm emulator)`);
    for (const [k, xs] of Object.entries(times)) {
      console.log(`  ${k.padEnd(32)} ${fmt(median(xs)).padStart(7)} ms   ${fmt(median(xs) / base, 2)} x node -e 0`);
    }
    const own = median(times['sitectl services list --json']) - floor;
    console.log(`  sitectl's own cost over the floor (schemas, reply validation, profile, context, output): ${fmt(own)} ms`);
    target('sitectl --version / node -e 0', median(times['sitectl --version']) / base, 1.1);
    target('services list --json / floor', median(times['sitectl services list --json']) / floor, 1.15);

    // 1b. Endless input is refused quickly (docs/architecture.md "Safety rules"): each reproducer as a whole process, exit 2 expected.
    console.log('\nEndless input refused (whole process, exit 2)');
    for (const args of [
      ['services', 'create', '--file', '/dev/zero'],
      ['bookings', 'create', '--file', '/dev/zero'],
      ['api', 'graphql', '--query-file', '/dev/zero'],
      ['services', 'diff', '-f', '/dev/urandom'],
      ['services', 'apply', '-f', '/dev/zero', '--to-site', 'Uptown', '--yes'],
    ]) {
      const t = performance.now();
      const r = spawnSync(process.execPath, [bin, ...args], { env: cliEnv, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
      const ms = performance.now() - t;
      if (r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}, not 2: ${r.stderr}`);
      target(`sitectl ${args.join(' ')}`, ms, 2000, '<=', ' ms');
    }
    if (ONLY === 'startup') {
      console.log(`\nTargets (node ${process.version})`);
      for (const line of verdicts) console.log(`  ${line}`);
      return;
    }

    // 2. Bulk update of SIZE services.
    console.log(`\nBulk update of ${SIZE} services (concurrency ${CONCURRENCY})`);
    let t0 = performance.now();
    await reset(emu, SIZE);
    console.log(`  seeding ${SIZE} services: ${fmt(performance.now() - t0, 0)} ms`);

    const cliMs = cliBulkUpdate(cliEnv, 'bench-journal.ndjson');
    console.log(`  sitectl services update --filter {} (plan + execute): ${fmt(cliMs, 0)} ms`);

    await reset(emu, SIZE);
    const bareEnv = { ...baseEnv, BARE_URL: new URL(emu.url).origin, BARE_KEY: emu.apiKey, BARE_SITE: emu.siteId, BARE_CONCURRENCY: String(CONCURRENCY) };
    const bareMs = timeCommand([join(root, 'bench', 'bare-bulk.mjs')], bareEnv);
    console.log(`  bare undici loop as its own process (bench/bare-bulk.mjs: query pages + the same bulk requests): ${fmt(bareMs, 0)} ms`);

    await reset(emu, SIZE);
    t0 = performance.now();
    const targets2 = await patchLoop(emu);
    const patchMs = performance.now() - t0;
    console.log(`  per-item PATCH loop: ${fmt(patchMs, 0)} ms`);
    target('PATCH loop / sitectl (x faster)', patchMs / cliMs, 20, '>=');
    target('sitectl / bare undici process', cliMs / bareMs, 1.3);

    // 3. Emulator reads per second.
    console.log(`\nEmulator simple reads (GET service by id, ${READ_SECONDS} s each)`);
    const ids = targets2.slice(0, 500).map((s) => s.id);
    for (const inFlight of [1, 8]) {
      const p = new Pool(new URL(emu.url).origin, { connections: inFlight });
      let n = 0;
      const end = performance.now() + READ_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (performance.now() < end) {
            await call(p, emu, 'GET', `/_api/bookings/v2/services/${ids[n % ids.length]}`);
            n++;
          }
        }),
      );
      console.log(`  ${inFlight} in flight: ${fmt(n / READ_SECONDS, 0)} reads/s`);
      await p.close();
    }

    // 4. The same comparison with the latency of a hosted API, where batching and concurrency pay off.
    if (LATENCY_MS > 0 && LATENCY_SIZE > 0) {
      console.log(`\nBulk update of ${LATENCY_SIZE} services with ${LATENCY_MS} ms added to every request (concurrency ${CONCURRENCY})`);
      await reset(emu, LATENCY_SIZE);
      await setFaults(emu, { latencyMs: LATENCY_MS });
      const cliLatMs = cliBulkUpdate(cliEnv, 'bench-journal-latency.ndjson');
      console.log(`  sitectl services update --filter {}: ${fmt(cliLatMs, 0)} ms`);
      await setFaults(emu, { latencyMs: 0 });
      await reset(emu, LATENCY_SIZE);
      await setFaults(emu, { latencyMs: LATENCY_MS });
      t0 = performance.now();
      await patchLoop(emu);
      const patchLatMs = performance.now() - t0;
      await setFaults(emu, { latencyMs: 0 });
      console.log(`  per-item PATCH loop: ${fmt(patchLatMs, 0)} ms`);
      target(`PATCH loop / sitectl with ${LATENCY_MS} ms latency (x faster)`, patchLatMs / cliLatMs, 20, '>=');
    }

    // 5. Availability of one appointment service over 30 days and 20 staff members.
    console.log(`\nAvailability: one appointment service, 20 staff, 30 days (median of ${AVAIL_RUNS} queries)`);
    await reset(emu, 60, { staff: 20 });
    const probe = new Pool(new URL(emu.url).origin, { connections: 1 });
    const services = await allServices(probe, emu);
    const staffIds = [...new Set(services.flatMap((s) => s.staffMemberIds ?? []))];
    const appointment = services.find((s) => s.name === 'Private Yoga Session') ?? services.find((s) => s.type === 'APPOINTMENT');
    const { service: wide } = await call(probe, emu, 'PATCH', `/_api/bookings/v2/services/${appointment.id}`, {
      service: { id: appointment.id, revision: appointment.revision, staffMemberIds: staffIds },
      mask: 'staffMemberIds',
    });
    const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
    const availBody = {
      query: { filter: { serviceId: [wide.id], startDate: start.toISOString(), endDate: new Date(start.getTime() + 30 * 86_400_000).toISOString() } },
    };
    const availMs = [];
    let slots = 0;
    for (let i = 0; i <= AVAIL_RUNS; i++) {
      const t = performance.now();
      const reply = await call(probe, emu, 'POST', '/_api/availability-calendar/v1/availability/query', availBody);
      if (i > 0) availMs.push(performance.now() - t); // the first run warms the caches
      slots = reply.availabilityEntries.length;
    }
    await probe.close();
    console.log(`  "${wide.name}" (${wide.schedule?.availabilityConstraints?.sessionDurations?.[0]} min), ${wide.staffMemberIds.length} staff, ${slots} slots: ${fmt(median(availMs))} ms per query (max ${fmt(Math.max(...availMs))})`);
    target('availability query, 20 staff x 30 days (median)', median(availMs), 50, '<=', ' ms');
    const availCli = measureCommand(['availability', wide.id, '--from', start.toISOString(), '--days', '30', '--json'], cliEnv);
    console.log(`  sitectl availability ${wide.id.slice(0, 8)} --days 30 --json: ${fmt(availCli.ms, 0)} ms, peak RSS ${fmt(availCli.rssKiB / 1024)} MiB`);

    // 6. Listing every booking as NDJSON: memory stays flat as the count grows.
    console.log('\nbookings list --all --ndjson (stdout to /dev/null)');
    const bookingRss = [];
    for (const count of BOOKING_COUNTS) {
      t0 = performance.now();
      await reset(emu, 60, { bookings: count });
      const seedMs = performance.now() - t0;
      const run = measureCommand(['bookings', 'list', '--all', '--ndjson'], cliEnv);
      bookingRss.push(run.rssKiB);
      console.log(`  ${String(count).padStart(6)} bookings: ${fmt(run.ms, 0).padStart(6)} ms, peak RSS ${fmt(run.rssKiB / 1024).padStart(6)} MiB (seeded in ${fmt(seedMs, 0)} ms)`);
    }
    target('bookings list peak RSS, largest / smallest count', Math.max(...bookingRss) / Math.min(...bookingRss), 1.2);

    // 7. Exporting every member as NDJSON streams in constant memory; listing throughput.
    console.log('\nmembers export --ndjson (stdout to /dev/null)');
    const exports = [];
    for (const count of MEMBER_COUNTS) {
      t0 = performance.now();
      await reset(emu, 60, { bookings: 0, members: count });
      const seedMs = performance.now() - t0;
      const run = measureCommand(['members', 'export', '--ndjson'], cliEnv);
      exports.push(run);
      console.log(`  ${String(count).padStart(6)} members: ${fmt(run.ms, 0).padStart(6)} ms, peak RSS ${fmt(run.rssKiB / 1024).padStart(6)} MiB, ${fmt(count / (run.ms / 1000), 0)} members/s (seeded in ${fmt(seedMs, 0)} ms)`);
    }
    if (exports.length >= 2) {
      const rss = exports.map((r) => r.rssKiB);
      console.log(`  largest peak RSS ${fmt(Math.max(...rss) / 1024)} MiB; largest / smallest ${fmt(Math.max(...rss) / Math.min(...rss), 2)} x`);
    }
    console.log('  targets: peak RSS < 150 MB, within 20 % between the counts');
    const listCount = MEMBER_COUNTS[MEMBER_COUNTS.length - 1];
    const list = measureCommand(['members', 'list', '--all', '--ndjson'], cliEnv);
    console.log(`  members list --all --ndjson over ${listCount} members: ${fmt(list.ms, 0)} ms, ${fmt(listCount / (list.ms / 1000), 0)} members/s, peak RSS ${fmt(list.rssKiB / 1024)} MiB`);
    const page = measureCommand(['members', 'list', '--status', 'PENDING', '--limit', '50', '--json'], cliEnv);
    console.log(`  members list --status PENDING --limit 50 --json: ${fmt(page.ms, 0)} ms`);

    await streamingAtScale(emu, cliEnv);
    await membersAtScale();
    await bookingsAtScale();
    await fanOut();

    // 8. Rolling the demo catalogue out to 20 sites with 20 ms added per request.
    console.log(`\nservices clone --to-site x ${FANOUT_SITES} sites, ${LATENCY_MS} ms added per request`);
    await reset(emu, 60, { bookings: 0, members: 0 });
    const fanout = [];
    const loopSites = [];
    const control = new Agent();
    for (let i = 1; i <= FANOUT_SITES; i++) {
      fanout.push((await call(control, emu, 'POST', '/__emulator/sites', { name: `Fan-out ${i}` })).site.id);
      loopSites.push((await call(control, emu, 'POST', '/__emulator/sites', { name: `Loop ${i}` })).site.id);
    }
    const catalogue = await allServices(control, emu);
    await setFaults(emu, { latencyMs: LATENCY_MS });
    try {
      const run = measureCommand(['services', 'clone', ...fanout.flatMap((id) => ['--to-site', id]), '--filter', '{}', '--yes', '--json'], cliEnv);
      console.log(`  sitectl services clone --to-site (x${FANOUT_SITES}) of ${catalogue.length} services: ${fmt(run.ms, 0)} ms, peak RSS ${fmt(run.rssKiB / 1024)} MiB`);
      // The loop a script without sitectl would write: per site, per service, one create (no reference mapping).
      const single = new Pool(new URL(emu.url).origin, { connections: 1 });
      t0 = performance.now();
      for (const site of loopSites) {
        for (const s of catalogue) {
          const body = { service: { name: s.name, type: s.type, description: s.description, tagLine: s.tagLine, defaultCapacity: s.defaultCapacity, payment: s.payment, onlineBooking: s.onlineBooking } };
          const res = await single.request({ path: '/_api/bookings/v2/services', method: 'POST', headers: { ...headersFor(emu), 'wix-site-id': site }, body: JSON.stringify(body) });
          const text = await res.body.text();
          if (res.statusCode !== 200) throw new Error(`create on ${site}: ${res.statusCode} ${text.slice(0, 200)}`);
        }
      }
      const loopMs = performance.now() - t0;
      await single.close();
      console.log(`  sequential per-site, per-service create loop: ${fmt(loopMs, 0)} ms`);
      console.log(`  sitectl is ${fmt(loopMs / run.ms, 1)} x faster than the loop (and maps references, checks revisions, journals)`);
    } finally {
      await setFaults(emu, { latencyMs: 0 });
      await control.close();
    }

    // 9. The interactive UI in a real terminal (tmux): time to first paint and key to redraw (docs/architecture.md "Interactive views").
    await reset(emu, 60);
    await interactiveUi(cliEnv, 'demo seed');
    console.log(`\nTargets (node ${process.version})`);
    for (const line of verdicts) console.log(`  ${line}`);
  } finally {
    emu.child.kill('SIGTERM');
    await waitFor(() => emu.child.exitCode !== null || emu.child.signalCode !== null, 10_000, 'emulator stop').catch(() => emu.child.kill('SIGKILL'));
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench: ${err.message}`);
  process.exitCode = 1;
});
