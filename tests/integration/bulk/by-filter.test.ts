/**
 * `services update --filter` as the platform's update-by-filter job (docs/wire.md "Operations and their verbs"),
 * in process against a real emulator on port 0 behind a proxy that can spoil the job: the job applies only part
 * of its chunk (then answers 500, or answers 200 as a job not finished would), or applies all of it and loses its
 * reply every time. Each run must read the chunk back, count what the job applied as done, send a new job over
 * only the untouched rest, and change every service exactly once.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, runInProcess, startTestEmulator, type CliResult, type CliSandbox, type TestEmulator } from '../../helpers/index.js';
import { lastEventSeq, updatesPerService } from './support.js';

let emu: TestEmulator;
let sandbox: CliSandbox;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 8, bookings: 0 });
  sandbox = createCliSandbox();
});
afterAll(async () => {
  await emu?.close();
  sandbox?.cleanup();
});

const UPDATE_BY_FILTER = '/bookings/v2/bulk/services/update-by-filter';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** The requests a `--debug` run sent that are writes, as `METHOD path`. */
const writes = (r: CliResult): string[] =>
  [...r.stderr.matchAll(/^debug: > (POST|PATCH|PUT|DELETE) https?:\/\/[^/]+(\S*)$/gm)].map((m) => `${m[1]} ${m[2]}`).filter((l) => !l.includes('/query'));

/**
 * What the proxy does with the n-th update-by-filter request (1-based): `keep` narrows the job to the first
 * `keep` services it names before the emulator runs it (undefined: all of them; 0: the job is not run at all);
 * `status` replaces the emulator's reply (undefined: the emulator's own).
 */
type Spoil = (n: number) => { keep?: number; status?: number };

/** A proxy on port 0 in front of the emulator; `jobs` are the ids each update-by-filter request named. */
async function spoiling(spoil: Spoil) {
  const sockets = new Set<Socket>();
  const jobs: { selection: unknown; ids: string[] }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      let status: number | undefined;
      if (req.url!.split('?')[0] === UPDATE_BY_FILTER) {
        const json = JSON.parse(body.toString('utf8')) as Json;
        const [selection, planned] = json.filter.$and;
        jobs.push({ selection, ids: planned.$or.map((p: Json) => p.id.$eq) });
        const what = spoil(jobs.length);
        if (what.keep !== undefined) planned.$or = planned.$or.slice(0, what.keep);
        body = Buffer.from(JSON.stringify(json));
        status = what.status;
        if (what.keep === 0) {
          // The job never ran.
          res.writeHead(status ?? 500, { 'content-type': 'application/json', 'x-wix-request-id': 'spoiled-0' });
          res.end(JSON.stringify({ message: 'Service Unavailable', details: {} }));
          return;
        }
      }
      const headers = { ...req.headers, host: new URL(emu.url).host, 'content-length': String(body.length) };
      const up = http.request(emu.url + req.url, { method: req.method, headers }, (reply) => {
        if (status === undefined) {
          res.writeHead(reply.statusCode!, reply.headers);
          reply.pipe(res);
          return;
        }
        // The job ran; its reply is lost to a 5xx.
        reply.resume();
        reply.on('end', () => {
          res.writeHead(status, { 'content-type': 'application/json', 'x-wix-request-id': 'spoiled-1' });
          res.end(JSON.stringify({ message: 'Internal Server Error', details: {} }));
        });
      });
      up.end(body);
    });
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    target: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: emu.apiKey, siteId: emu.siteId },
    jobs,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let n = 0;
/** `count` new services whose names start with a tag of their own; returns the tag and their ids. */
async function services(count: number): Promise<{ tag: string; ids: string[] }> {
  const tag = `ByFilterJob ${Date.now().toString(36)}${n++}`;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await runInProcess(['services', 'create', '--name', `${tag} ${i}`, '--type', 'APPOINTMENT', '--price', '30', '--capacity', '1'], { emulator: emu, sandbox });
    expect(r.code, r.stderr).toBe(0);
    ids.push(r.stdout.trim());
  }
  return { tag, ids };
}

async function tagLineOf(id: string): Promise<string | null> {
  return (await emu.request('GET', `/_api/bookings/v2/services/${id}`)).body.service.tagLine ?? null;
}

describe('services update --filter: a job that did part of its chunk', () => {
  it.each([
    ['answers 500 after applying half', 500],
    ['answers 200 with half applied (a job not finished)', undefined],
  ])('%s: the read-back counts that half, a new job goes over only the rest, each service changes once', async (_name, status) => {
    const { tag, ids } = await services(6);
    const seq = await lastEventSeq(emu);
    const proxy = await spoiling((k) => (k === 1 ? { keep: 3, status } : {}));
    try {
      const filter = JSON.stringify({ name: { $startsWith: tag } });
      const r = await runInProcess(['--debug', 'services', 'update', '--filter', filter, '--set', 'tagLine="Job"', '--yes', '--json'], { emulator: proxy.target, sandbox });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).counts).toMatchObject({ updated: 6, failed: 0, conflict: 0 });
      // Only update-by-filter went out: the first job over the chunk, the second over the three it left.
      expect(writes(r)).toEqual([`POST ${UPDATE_BY_FILTER}`, `POST ${UPDATE_BY_FILTER}`]);
      expect(proxy.jobs.map((j) => j.ids.length)).toEqual([6, 3]);
      expect(new Set(proxy.jobs[0]!.ids)).toEqual(new Set(ids));
      expect(proxy.jobs[1]!.ids).toEqual(proxy.jobs[0]!.ids.slice(3));
      for (const j of proxy.jobs) expect(j.selection).toEqual({ name: { $startsWith: tag } });
      for (const id of ids) expect(await tagLineOf(id)).toBe('Job');
      const updates = await updatesPerService(emu, seq);
      expect(new Set(updates.keys())).toEqual(new Set(ids));
      expect([...updates.values()].every((c) => c === 1)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('loses every reply: the first job applied the whole chunk, the read-back counts it, nothing is sent again; undo restores each', async () => {
    const { tag, ids } = await services(4);
    const before = await Promise.all(ids.map(tagLineOf));
    const seq = await lastEventSeq(emu);
    const proxy = await spoiling(() => ({ status: 500 }));
    try {
      const r = await runInProcess(['services', 'update', '--filter', JSON.stringify({ name: { $startsWith: tag } }), '--set', 'tagLine="Lost"', '--yes', '--json'], {
        emulator: proxy.target,
        sandbox,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).counts).toMatchObject({ updated: 4, failed: 0 });
      expect(proxy.jobs.length).toBe(1);
      const updates = await updatesPerService(emu, seq);
      expect(updates.size).toBe(4);
      expect([...updates.values()].every((c) => c === 1)).toBe(true);
    } finally {
      await proxy.close();
    }
    const undo = await runInProcess(['undo', '--last', '--yes'], { emulator: emu, sandbox });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await Promise.all(ids.map(tagLineOf))).toEqual(before);
  });

  it('a job whose every attempt leaves its chunk untouched fails those services after the attempts, resumable', async () => {
    const { tag, ids } = await services(2);
    const proxy = await spoiling(() => ({ keep: 0, status: 503 }));
    try {
      const r = await runInProcess(['services', 'update', '--filter', JSON.stringify({ name: { $startsWith: tag } }), '--set', 'tagLine="Never"', '--yes', '--json'], {
        emulator: proxy.target,
        sandbox,
      });
      expect(r.code, r.stderr).toBe(3);
      const report = JSON.parse(r.stdout);
      expect(report.counts).toMatchObject({ updated: 0, failed: 2 });
      // The engine's four attempts, each over both services: none was applied.
      expect(proxy.jobs.map((j) => j.ids.length)).toEqual([2, 2, 2, 2]);
      expect(r.stderr).toMatch(/^hint: failed items are retried by: sitectl services update --resume /m);
      const journal = /--resume (\S+)/.exec(r.stderr)![1]!;
      const resumed = await runInProcess(['services', 'update', '--resume', journal, '--yes', '--json'], { emulator: emu, sandbox });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).counts).toMatchObject({ updated: 2 });
      for (const id of ids) expect(await tagLineOf(id)).toBe('Never');
    } finally {
      await proxy.close();
    }
  });
});
