/**
 * The report's closing error (bulk/report.ts assertComplete): `--resume` is offered only for failures a resume can
 * get past (network, 5xx, 429); a failure the platform would give again (a policy, a validation, a state: 4xx) is
 * told as permanent, with what to do instead.
 */
import { describe, expect, it } from 'vitest';
import { failedResult } from '../../../src/bulk/execute.js';
import { assertComplete, buildReport, summaryLine } from '../../../src/bulk/report.js';
import type { ItemResult } from '../../../src/bulk/execute.js';

const run = { runId: 'r', entity: 'bookings', action: 'cancel', done: 'canceled', journal: '/j' };
const resume = 'sitectl bookings cancel --resume /j --yes';

function hintOf(results: ItemResult[]): string | undefined {
  try {
    assertComplete(buildReport(run, results), resume);
  } catch (err) {
    expect((err as { exitCode: number }).exitCode).toBe(3);
    return (err as { hint?: string }).hint;
  }
  return undefined;
}

describe('assertComplete', () => {
  it('classifies refusals by status: 4xx (and per-item refusals without one) are permanent; 408, 429, 5xx are not', () => {
    expect(failedResult('a', { id: 'a', status: 'refused', error: 'BOOKING_POLICY_VIOLATION', httpStatus: 428 }).permanent).toBe(true);
    expect(failedResult('a', { id: 'a', status: 'refused', error: 'bad', httpStatus: undefined }).permanent).toBe(true);
    expect(failedResult('a', { id: 'a', status: 'refused', error: 'busy', httpStatus: 503 }).permanent).toBeUndefined();
    expect(failedResult('a', { id: 'a', status: 'refused', error: 'slow down', httpStatus: 429 }).permanent).toBeUndefined();
    expect(failedResult('a', { id: 'a', status: 'settle' }).permanent).toBeUndefined();
  });

  it('offers --resume for transient failures only, and names the fix for permanent ones', () => {
    expect(hintOf([{ id: 'a', outcome: 'canceled' }])).toBeUndefined();
    expect(hintOf([{ id: 'a', outcome: 'failed', error: '503' }])).toBe(`failed items are retried by: ${resume}`);
    const permanent = hintOf([{ id: 'a', outcome: 'failed', error: 'BOOKING_POLICY_VIOLATION', permanent: true }]);
    expect(permanent).not.toContain('--resume /j');
    expect(permanent).toMatch(/1 was refused by the platform .* --resume would be refused the same way/);
    const mixed = hintOf([
      { id: 'a', outcome: 'failed', error: '503' },
      { id: 'b', outcome: 'failed', error: 'INVALID', permanent: true },
      { id: 'c', outcome: 'conflict', error: 'changed' },
    ]);
    expect(mixed).toContain(`1 failed item is retried by: ${resume}`);
    expect(mixed).toContain('1 was refused by the platform');
    expect(mixed).toContain('conflicts were changed by someone else');
  });

  it('lists items done partly (a note) in the report and ends the run with exit 3, without offering --resume', () => {
    const created = { runId: 'r', entity: 'services', action: 'clone', done: 'created', journal: '/j' };
    const report = buildReport(created, [
      { id: 'slot1', outcome: 'created', createdId: 's1' },
      { id: 'slot2', outcome: 'created', createdId: 's2', note: 'not copied: FORM' },
    ]);
    expect(report.partial).toEqual([{ id: 'slot2', outcome: 'created', createdId: 's2', note: 'not copied: FORM' }]);
    expect(summaryLine(report, { one: 'service', many: 'services' })).toBe('2 services: 2 created (1 of them partly)');
    let thrown: { exitCode?: number; message?: string; hint?: string } = {};
    try {
      assertComplete(report, resume);
    } catch (err) {
      thrown = err as typeof thrown;
    }
    expect(thrown.exitCode).toBe(3);
    expect(thrown.message).toBe('1 of 2 items was done only partly');
    expect(thrown.hint).not.toContain('--resume');
    expect(buildReport(created, [{ id: 'slot1', outcome: 'created', createdId: 's1' }]).partial).toBeUndefined();
  });
});

describe('the resume hint', () => {
  it('carries the run\'s --profile and --site, and --yes where no prompt can be shown', async () => {
    const { resumeLine } = await import('../../../src/commands/shared/bulk.js');
    const ctx = (canPrompt: boolean, flags: { profile?: string; site?: string }) =>
      ({ bin: 'sitectl', flags: { debug: false, noInput: false, ...flags }, io: { canPrompt: () => canPrompt } }) as never;
    expect(resumeLine(ctx(true, {}), 'services update', '/j/a b.ndjson')).toBe("sitectl services update --resume '/j/a b.ndjson'");
    expect(resumeLine(ctx(false, { profile: 'prod', site: 'Mission Bay' }), 'orders pause', '/j.ndjson')).toBe(
      "sitectl --profile prod --site 'Mission Bay' orders pause --resume /j.ndjson --yes",
    );
  });
});
