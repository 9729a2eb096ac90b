/**
 * `sitectl emulator pay` and the payment hint of `sitectl checkout online`, in process against an in-process
 * emulator (announced to `--data-dir` by a pid file, as `emulator mail` finds it): a script buys online and pays
 * without a browser, makes a payment fail, and is refused clearly for an order that does not wait for a payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removePidFile, writePidFile } from '../../../src/local/daemon.js';
import { runInProcess, startTestEmulator, type TestEmulator } from '../../helpers/index.js';

let emu: TestEmulator;
let member: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo', size: 5, bookings: 0, members: 10 });
  writePidFile(emu.dataDir, { pid: process.pid, url: emu.url, port: emu.port });
  member = (await emu.request('POST', '/members/v1/members', { member: { loginEmail: `cli-payer-${Date.now()}@example.com` } })).body.member.loginEmail;
});
afterAll(async () => {
  if (emu) removePidFile(emu.dataDir, process.pid);
  await emu?.close();
});

const run = (args: string[], tty = false) => runInProcess(args, { emulator: emu, tty });
const buy = async () => {
  const r = await run(['checkout', 'online', 'Silver 12 Months', '--member', member]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};

describe('sitectl emulator pay', () => {
  it('pays a DRAFT online order: the id on stdout when piped, ACTIVE/PAID with --json, what happened on stderr', async () => {
    const id = await buy();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const r = await run(['emulator', 'pay', id, '--data-dir', emu.dataDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toContain(`Paid order ${id} of "Silver 12 Months": ACTIVE, payment PAID`);
    const got = await run(['orders', 'get', id, '--json', 'status,lastPaymentStatus']);
    expect(JSON.parse(got.stdout)).toEqual({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
    const events = (await emu.request('GET', '/__emulator/events?after=0&limit=1000')).body.events.filter((e: { entityId: string }) => e.entityId === id).map((e: { type: string }) => e.type);
    expect(events).toEqual(['order.created', 'order.purchased', 'order.started']);
  });

  it('--outcome failed: the order stays DRAFT with payment FAILED; then paid', async () => {
    const id = await buy();
    const r = await run(['emulator', 'pay', id, '--outcome', 'failed', '--data-dir', emu.dataDir, '--json', 'id,status,lastPaymentStatus']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, status: 'DRAFT', lastPaymentStatus: 'FAILED' });
    expect(r.stderr).toContain(`The payment of order ${id} failed`);
    const again = await run(['emulator', 'pay', id, '--data-dir', emu.dataDir, '--json', 'status,lastPaymentStatus']);
    expect(JSON.parse(again.stdout)).toEqual({ status: 'ACTIVE', lastPaymentStatus: 'PAID' });
  });

  it('refuses an order that does not wait for a payment (exit 1, the reason), a bad --outcome (exit 2), no emulator (exit 1)', async () => {
    const id = await buy();
    await run(['emulator', 'pay', id, '--data-dir', emu.dataDir]);
    const twice = await run(['emulator', 'pay', id, '--data-dir', emu.dataDir]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain(`order ${id} is ACTIVE (payment PAID): it is paid already`);
    const offline = (await run(['checkout', 'offline', 'Silver 12 Months', '--member', member])).stdout.trim();
    const off = await run(['emulator', 'pay', offline, '--data-dir', emu.dataDir]);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('mark it as paid');
    const unknown = await run(['emulator', 'pay', '00000000-0000-4000-8000-000000000009', '--data-dir', emu.dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no site of the account has order');
    const bad = await run(['emulator', 'pay', id, '--outcome', 'maybe', '--data-dir', emu.dataDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--outcome: unknown value 'maybe'");
    const none = await run(['emulator', 'pay', id, '--data-dir', `${emu.dataDir}-none`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no emulator is running');
  });
});

describe('sitectl checkout online on the emulator', () => {
  it("on a terminal, says on stderr where to pay (the hosted checkout page of the order); piped, stdout is the id only and nothing is added", async () => {
    const piped = await run(['checkout', 'online', 'Silver 12 Months', '--member', member]);
    expect(piped.stderr).not.toContain('checkout page');
    const r = await run(['checkout', 'online', 'Silver 12 Months', '--member', member], true);
    expect(r.code, r.stderr).toBe(0);
    const url = /Pay it on the emulator's checkout page: (\S+)/.exec(r.stderr)?.[1];
    expect(url).toMatch(new RegExp(`^${emu.url}/hosted/paidPlansCheckout\\?session=`));
    expect(r.stderr).toMatch(/sitectl emulator pay [0-9a-f-]{36}/);
    expect(r.stdout).not.toContain('paidPlansCheckout');
    const page = await fetch(url!).then((res) => res.text());
    expect(page).toContain('Silver 12 Months');
    expect(page).toContain('Pay 29.00 USD');
  });
});
