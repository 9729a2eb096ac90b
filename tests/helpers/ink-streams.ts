/**
 * Fake terminal streams for driving Ink in process (what ink-testing-library does, without the dependency): keys
 * are written to a FakeStdin, frames read from a FakeStdout. Ink reads CI once, when it loads, and in CI draws only
 * the final frame, so a test file that reads frames hides CI before Ink loads with `vi.hoisted` (see
 * tests/unit/ui/browser-component.test.tsx): a helper module cannot do that, its imports run too late.
 */
import { PassThrough } from 'node:stream';

// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** An 80x24 terminal's stdout that keeps every write. */
export class FakeStdout extends PassThrough {
  columns = 80;
  rows = 24;
  isTTY = true;
  frames: string[] = [];
  constructor() {
    super();
    this.on('data', (c: Buffer) => this.frames.push(c.toString()));
  }
  /** The last frame drawn (a write with text in it; cursor moves and erases stripped). */
  get last(): string {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const text = this.frames[i]!.replace(ESCAPES, '');
      if (text.trim()) return text;
    }
    return '';
  }
  /** Everything written so far, escapes stripped. */
  get all(): string {
    return this.frames.join('').replace(ESCAPES, '');
  }
}

/** A terminal's stdin in raw mode: what the test writes are key presses. */
export class FakeStdin extends PassThrough {
  isTTY = true;
  setRawMode() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
}

/**
 * Waits until the last frame passes `test` and returns it.
 * @throws Error naming `what` and showing the last frame after 5 s
 */
export async function untilFrame(stdout: FakeStdout, test: (frame: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    if (test(stdout.last)) return stdout.last;
    if (Date.now() > deadline) throw new Error(`never drew ${what}; last frame:\n${stdout.last}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
