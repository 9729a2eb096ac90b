/**
 * k9s's keys in a real terminal (tmux runs the built CLI) at 80x24 and 120x40: `:NOUN` opens another noun's list
 * in place of the view (Tab completes, an unknown word is refused in one line), from a browse view and from the
 * dashboard; Shift and a column's letter sorts by that column, again reverses, the header marking the column
 * (`NAME↑`, `NAME↓`) and underlining each column's letter; `?` lists every key of the view from the declarations.
 * The sorted rows are the file's own services (tests/helpers/studio.ts), picked out with the filter line, so the
 * verdict is the same at any hour. `o` on the dashboard's first pane at 80x24, where its one optional column (ID)
 * is hidden, shows it. Skipped, with a message, only when tmux is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, makeStudio, runInProcess, startTestEmulator, type CliSandbox, type TestEmulator } from '../helpers/index.js';
import { hasTmux, openTerminal, type Terminal } from '../helpers/tmux.js';
import { LIST_KEYS, sortKeys } from '../../src/ui/browser-keys.js';
import { bookingKeys } from '../../src/commands/bookings/shared/transitions.js';
import { BOOKING_READS } from '../../src/commands/bookings/shared/reads.js';
import { paneColumns } from '../../src/commands/shared/browse.js';

if (!hasTmux) console.warn('tests/e2e/keys-tty.test.ts: tmux is not installed; skipping the real-terminal tests');

let emu: TestEmulator;
let sandbox: CliSandbox;
let term: Terminal;

/** The file's own booking in the dashboard's first pane, by its contact's last name. */
const REVEAL = { lastName: 'Revealington-Featherstonehaugh', id: '' };

/** The file's own services, made in an order that is not their names' order. */
const OWN = ['Keys Sort Bravo', 'Keys Sort Charlie', 'Keys Sort Alpha'];
beforeAll(async () => {
  if (!hasTmux) return;
  emu = await startTestEmulator({ seed: 'demo' });
  sandbox = createCliSandbox();
  term = openTerminal(sandbox, emu);
  const studio = await makeStudio((args, o) => runInProcess(args, { emulator: emu, sandbox, ...o }), 'keys', 1);
  for (const name of OWN) await studio.appointment({ name });
  // A booking in the dashboard's first pane whose names are wider than any of the demo's: at 80 columns that pane
  // then has its one optional column, ID, hidden.
  const wide = await studio.appointment({ name: 'Keys Reveal Deep Tissue and Hot Stone Massage for Two' });
  REVEAL.id = (await studio.book(wide.name, { firstName: 'Maximiliana', lastName: REVEAL.lastName, email: 'keys-reveal@example.com', confirmed: true })).id;
});
afterAll(async () => {
  if (!hasTmux) return;
  term?.close();
  await emu?.close();
  sandbox?.cleanup();
});

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

/** A whole frame: rows under the header, down to the key line. */
const FRAME = /^> [\s\S]*\? help · q quit/m;

/** Lines within the terminal's width and height. */
function fits(screen: string, width: number, height: number): void {
  const lines = screen.replace(/\n+$/, '').split('\n');
  expect(lines.length).toBeLessThanOrEqual(height);
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
}

/** Types `text` on the `:` line and waits for it there. */
async function command(name: string, text: string): Promise<void> {
  term.send(name, ':');
  await term.waitFor(name, /^:▏$/m);
  term.send(name, '-l', text);
  await term.waitFor(name, new RegExp(`^:${text}▏$`, 'm'));
}

async function quit(name: string): Promise<void> {
  term.send(name, 'q');
  await term.waitFor(name, /EXIT=0/);
}

describe.skipIf(!hasTmux)('o on a pane with one optional column hidden (tmux, 80x24)', () => {
  it("80x24: o shows the dashboard pane's one hidden column (ID) in place of the optional ones, o again goes back", async () => {
    const name = 'reveal';
    term.start(name, ['dashboard', '--interval', '60'], { width: 80, height: 24 });
    await term.waitFor(name, /^\[7 days by staff \d+\][\s\S]*\? help · q quit/m);
    // The file's booking only (the filter line's text, on the loaded rows).
    term.send(name, '/');
    await term.waitFor(name, /^\/▏/m);
    term.send(name, '-l', REVEAL.lastName);
    term.send(name, 'Enter');
    const header = (screen: string) => screen.split('\n').find((l) => /^ {3}STAFF /.test(l))!;
    const hidden = await term.waitFor(name, /^ {3}STAFF +START +SERVICE +CONTACT +STATUS +›$[\s\S]*^> .*CONFIRMED[\s\S]*\? help · q quit/m);
    fits(hidden, 80, 24);
    // One optional column, and it is the one hidden: no ID, no short id on the row.
    expect(header(hidden)).not.toMatch(/\bID\b/);
    expect(hidden).not.toContain(REVEAL.id.slice(0, 8));
    term.send(name, 'o');
    const shown = await term.waitFor(name, /^ {3}STAFF +START +SERVICE +CONTACT +STATUS +ID$[\s\S]*\? help · q quit/m);
    fits(shown, 80, 24);
    // The key columns stay; the row now has the booking's short id, and no › says more is hidden.
    expect(shown).toMatch(new RegExp(`^> .*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \\d\\d:\\d\\d .*CONFIRMED +${REVEAL.id.slice(0, 8)}$`, 'm'));
    expect(header(shown)).not.toContain('›');
    term.send(name, 'o');
    await term.waitFor(name, /^ {3}STAFF +START +SERVICE +CONTACT +STATUS +›$/m);
    await quit(name);
  });
});

describe.skipIf(!hasTmux)('k9s keys at 80x24 and 120x40 (tmux)', () => {
  for (const [width, height] of SIZES) {
    it(`${width}x${height}: ':' opens another noun's list in place of the view, Tab completes, an unknown word is refused in one line`, async () => {
      const name = `jump${width}`;
      term.start(name, ['browse', 'bookings'], { width, height });
      await term.waitFor(name, new RegExp(`^sitectl bookings · [\\s\\S]*${FRAME.source}`, 'm'));
      await command(name, 'mem');
      // The words it may complete to are listed; Tab takes their common prefix, then the next word.
      await term.waitFor(name, /^tab complete · enter open · esc cancel · members member$/m);
      term.send(name, 'Tab');
      await term.waitFor(name, /^:member▏$/m);
      term.send(name, 'Tab');
      await term.waitFor(name, /^:members▏$/m);
      term.send(name, 'Enter');
      const members = await term.waitFor(name, new RegExp(`^sitectl members · [\\s\\S]*EMAIL[\\s\\S]*${FRAME.source}`, 'm'));
      fits(members, width, height);
      expect(members).toMatch(/a approve · b block/);
      // An unknown word: said in one line, the view stays.
      await command(name, 'nope');
      await term.waitFor(name, /no such noun$/m);
      term.send(name, 'Enter');
      const refused = await term.waitFor(name, /^✗ no list named 'nope': services, service, bookings/m);
      expect(refused).toMatch(/^sitectl members · /m);
      expect(refused).toMatch(FRAME);
      // An alias, from the list the jump opened.
      await command(name, 'plan');
      term.send(name, 'Enter');
      const plans = await term.waitFor(name, new RegExp(`^sitectl plans · [\\s\\S]*${FRAME.source}`, 'm'));
      fits(plans, width, height);
      // Typed faster than a frame, in one write: each key counts, the Tabs included.
      term.send(name, ':', 'o', 'r', 'd', 'Tab', 'Tab', 'Enter');
      await term.waitFor(name, new RegExp(`^sitectl orders · [\\s\\S]*${FRAME.source}`, 'm'));
      await quit(name);
    });

    it(`${width}x${height}: ':' in the dashboard opens the noun's list in place of the dashboard's panes`, async () => {
      const name = `dashjump${width}`;
      term.start(name, ['dashboard', '--interval', '60'], { width, height });
      await term.waitFor(name, /^\[7 days by staff \d+\][\s\S]*\? help · q quit/m);
      await command(name, 'serv');
      term.send(name, 'Tab');
      await term.waitFor(name, /^:service▏$/m);
      term.send(name, 'Enter');
      const services = await term.waitFor(name, new RegExp(`^sitectl services · [\\s\\S]*NAME +TYPE[\\s\\S]*${FRAME.source}`, 'm'));
      fits(services, width, height);
      // One list now: no tab bar, no events strip.
      expect(services).not.toMatch(/7 days by staff|^── Events/m);
      await quit(name);
    });

    it(`${width}x${height}: Shift and a column's letter sorts by it, again reverses; the header marks the column and underlines each letter`, async () => {
      const name = `sort${width}`;
      term.start(name, ['services', 'list', '--interactive'], { width, height });
      await term.waitFor(name, FRAME);
      term.send(name, '/');
      await term.waitFor(name, /^\/▏/m);
      term.send(name, '-l', 'Keys Sort');
      term.send(name, 'Enter');
      // The services query searches the name on the server: only the file's own services are read.
      await term.waitFor(name, /3 loaded.* · search "Keys Sort"[\s\S]*^> .*Keys Sort/m);
      // The letters: I for ID, N for NAME, T for TYPE (the first letter of each header no key takes), underlined.
      // eslint-disable-next-line no-control-regex
      const header = term.styled(name).split('\n').find((l) => /^ {3}ID +NAME/.test(l.replace(/\u001b\[[0-9;]*m/g, '')))!;
      // eslint-disable-next-line no-control-regex
      expect(header).toMatch(/\u001b\[4mN(\u001b\[[0-9;]*m)+AME/);
      // eslint-disable-next-line no-control-regex
      expect(header).toMatch(/\u001b\[4mT(\u001b\[[0-9;]*m)+YPE/);
      const own = (screen: string) => screen.split('\n').filter((l) => /^[> ][ *] .*Keys Sort \w+/.test(l)).map((l) => /Keys Sort \w+/.exec(l)![0]);

      term.send(name, 'N');
      const up = await term.waitFor(name, /^ {3}ID +NAME↑ [\s\S]*^> .*Keys Sort/m);
      // The header carries the arrow; the title names a whole sort only where it has room beside the zone and filter.
      if (width >= 120) expect(up).toMatch(/sort NAME ↑/);
      expect(own(up)).toEqual(['Keys Sort Alpha', 'Keys Sort Bravo', 'Keys Sort Charlie']);
      fits(up, width, height);
      term.send(name, 'N');
      const down = await term.waitFor(name, /^ {3}ID +NAME↓ [\s\S]*^> .*Keys Sort Charlie/m);
      if (width >= 120) expect(down).toMatch(/sort NAME ↓/);
      expect(own(down)).toEqual(['Keys Sort Charlie', 'Keys Sort Bravo', 'Keys Sort Alpha']);
      // Another column's letter: by it, ascending; s still cycles to the next column.
      term.send(name, 'T');
      await term.waitFor(name, /^ {3}ID +NAME +TYPE↑ /m);
      term.send(name, 's');
      await term.waitFor(name, /PRICE↑|sort PRICE ↑/);
      await quit(name);
    });

    it(`${width}x${height}: ? lists every key of the view from the declarations, scrolling when it is longer than the screen`, async () => {
      const name = `help${width}`;
      term.start(name, ['browse', 'bookings'], { width, height });
      const list = await term.waitFor(name, FRAME);
      const shown = list
        .split('\n')
        .find((l) => /^ {3}(ID +)?START/.test(l))!
        .trim()
        .split(/\s+/)
        .filter((h) => h !== '›')
        .map((h) => h.replace(/[↑↓]$/, ''));
      term.send(name, '?');
      const top = await term.waitFor(name, /^Keys$/m);
      fits(top, width, height);
      term.send(name, 'G');
      const end = await term.waitFor(name, /^Actions \(on the marked rows/m);
      fits(end, width, height);
      // Both pages, each line's continuation joined to it.
      const text = `${top}\n${end}`.replace(/\n {17}/g, ' ');
      for (const key of LIST_KEYS.filter((k) => k.name !== 'tab shift-tab')) expect(text, key.name).toContain(`  ${key.name} `);
      expect(text).not.toMatch(/tab shift-tab/);
      const verbs = await bookingKeys();
      for (const v of verbs) expect(text).toMatch(new RegExp(`^ {2}${v.key} +${v.label.toLowerCase()}`, 'm'));
      // Each column's Shift-letter, with the column, as the list declares its columns (the shown ones among them).
      const columns = paneColumns(BOOKING_READS.columns!({})).columns;
      for (const h of ['START', 'SERVICE', 'CONTACT', 'STATUS']) expect(shown).toContain(h);
      const sorts = sortKeys(columns, verbs.map((v) => v.key));
      for (const [i, column] of columns.entries()) expect(text).toContain(`${sorts[i]} ${column}`);
      term.send(name, 'Escape');
      await term.waitFor(name, /^(?![\s\S]*^Keys$)[\s\S]*\? help · q quit/m);
      await quit(name);
    });
  }
});
