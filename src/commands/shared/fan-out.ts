/**
 * What a fan-out (a verb run on several sites: `services apply --to-site`, `services clone`, the undo of either)
 * shows while it runs (docs/manual/commands.md "CI: roll a catalog out to several sites"): on a terminal, one live counter on stderr (the Ink progress bar, loaded
 * by dynamic import) with the sites done of all, the items done, the 429s met and the request rate over the last
 * seconds (and the rate the client paces at, once a 429 taught it one: each site's, or all sites' together when they
 * share a limit: api/pacer.ts); off a terminal,
 * one line per site as it ends, a line every 5 s while nothing else is said, and one at the end. The 429s are the
 * command's (every call to the origin since it started). stdout is never written.
 */
import { sharedPacers } from '../../api/pacer.js';
import type { Context } from '../../context.js';
import { notice } from '../../core/log.js';
import { oneLine } from '../../core/text.js';

/** How often the counter's rate is measured and redrawn, in ms. */
const TICK_MS = 500;
/** Off a terminal: a line when nothing was said for this long. */
const QUIET_LINE_MS = 5000;

/** One site's end as the counter and its line say it. */
export interface SiteEnd {
  /** The site's id, as given to {@link FanOutProgress.items}: its items are then counted as done and forgotten. */
  siteId?: string;
  siteName: string;
  status: string;
  counts: Record<string, number>;
  error?: string;
}

/** The live counter of one phase of a fan-out (planning the sites, or running them). */
export interface FanOutProgress {
  /** Items of `site` done so far (the bulk engine's progress of that site). */
  items(site: string, done: number): void;
  /** A site ended. */
  siteDone(end: SiteEnd): void;
  /** Stops the counter (leaves its last frame on a terminal). */
  done(): Promise<void>;
  /** True while the counter owns the terminal line: per-site notices are left to the summary then. */
  readonly live: boolean;
}

/** `12 created, 3 updated` of a site's nonzero counts. */
function countText(counts: Record<string, number>): string {
  const parts = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(', ') : 'nothing to do';
}

/**
 * Starts the counter of a fan-out over `sites` sites.
 * @param title what the phase does (`planning`, `applying`)
 * @param origin the API's origin (`http://127.0.0.1:4010`): its pacers give the 429s and the learned rate
 * @param perSiteLines off a terminal, one line per site as it ends (the run phase); else only the quiet-time line
 */
export function fanOutProgress(ctx: Context, opts: { title: string; sites: number; origin: string; perSiteLines: boolean }): FanOutProgress {
  const io = ctx.io;
  const started = Date.now();
  // Only the sites in flight are held; a site that ended is folded into `itemsOfEnded` (memory flat in the sites).
  const itemsBySite = new Map<string, number>();
  let itemsOfEnded = 0;
  const ended = (end: SiteEnd) => {
    if (end.siteId === undefined) return;
    itemsOfEnded += itemsBySite.get(end.siteId) ?? 0;
    itemsBySite.delete(end.siteId);
  };
  let sitesDone = 0;
  let failedSites = 0;
  let lastSaid = started;
  /** Replies seen at each of the last few ticks, for the rate over the last ~2 s. */
  const samples: { at: number; replies: number }[] = [{ at: started, replies: sharedPacers.stats(opts.origin).replies }];

  const items = () => {
    let n = itemsOfEnded;
    for (const v of itemsBySite.values()) n += v;
    return n;
  };
  const detail = () => {
    const now = Date.now();
    const stats = sharedPacers.stats(opts.origin);
    samples.push({ at: now, replies: stats.replies });
    while (samples.length > 5) samples.shift();
    const first = samples[0]!;
    const rate = now > first.at ? ((stats.replies - first.replies) * 1000) / (now - first.at) : 0;
    // The command's 429s so far (every call to this origin since it started), as the server counted them.
    const parts = [`${items()} items`, `${stats.throttled} rate-limited`, `${rate.toFixed(rate < 10 ? 1 : 0)} req/s`];
    // The sites' shared limit when one was seen (api/pacer.ts), else each site's own.
    if (stats.originRate !== undefined) parts.push(`paced ~${stats.originRate.toFixed(stats.originRate < 10 ? 1 : 0)}/s in all`);
    else if (stats.rate !== undefined) parts.push(`paced ~${stats.rate.toFixed(stats.rate < 10 ? 1 : 0)}/s a site`);
    // The platform asked a site to wait (its Retry-After): said here, as the waiting notices are held meanwhile.
    if (stats.pausedMs >= 1000) parts.push(`the platform asks to wait ${Math.ceil(stats.pausedMs / 1000)} s - Ctrl-C to stop`);
    return parts.join(', ');
  };
  const line = () => `${opts.title}: ${sitesDone}/${opts.sites} sites, ${detail()}`;

  if (!io.isStderrTTY) {
    const ticker = setInterval(() => {
      if (Date.now() - lastSaid < QUIET_LINE_MS) return;
      lastSaid = Date.now();
      notice(io, line());
    }, TICK_MS);
    ticker.unref?.();
    return {
      live: false,
      items(site, done) {
        itemsBySite.set(site, done);
      },
      siteDone(end) {
        ended(end);
        sitesDone += 1;
        if (!opts.perSiteLines) return;
        lastSaid = Date.now();
        notice(io, `site ${end.siteName}: ${end.status}, ${countText(end.counts)}${end.error ? ` (${oneLine(end.error)})` : ''} [${sitesDone}/${opts.sites} sites, ${detail()}]`);
      },
      async done() {
        clearInterval(ticker);
        notice(io, line());
      },
    };
  }

  // A terminal: the Ink bar, counting sites; the waiting notices are held while it owns the line (the counter
  // says the 429s and the rate instead).
  const release = ctx.holdWaitNotices();
  let handle: { update(p: { done: number; total?: number; failed?: number; ratePerSec?: number; etaMs?: number; detail?: string }): void; done(): Promise<void> } | undefined;
  const draw = () => {
    const elapsed = Math.max(1e-3, (Date.now() - started) / 1000);
    const ratePerSec = sitesDone / elapsed;
    handle?.update({ done: sitesDone, failed: failedSites, ratePerSec, etaMs: ratePerSec > 0 ? ((opts.sites - sitesDone) / ratePerSec) * 1000 : undefined, detail: detail() });
  };
  const ready = import('../../ui/index.js').then((ui) => {
    handle = ui.renderProgress({ title: opts.title, total: opts.sites, stdout: io.stderr as NodeJS.WriteStream });
    draw();
  });
  const ticker = setInterval(draw, TICK_MS);
  ticker.unref?.();
  return {
    live: true,
    items(site, done) {
      itemsBySite.set(site, done);
    },
    siteDone(end) {
      ended(end);
      sitesDone += 1;
      if (end.status === 'failed' || end.status === 'partial' || end.status === 'refused') failedSites += 1;
      draw();
    },
    async done() {
      clearInterval(ticker);
      await ready;
      draw();
      await handle?.done();
      release();
    },
  };
}
