/**
 * The other half of the wire contract test's exceptions (docs/wire.md §27): the table of that section names
 * exactly the SDK operations `SDK_ONLY` (sdk-fixture.ts) lists, so the documented list and the one the test
 * enforces cannot drift apart. sdk-wire.test.ts checks that every operation of the official modules is in a
 * family table or in `SDK_ONLY`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_ONLY } from './sdk-fixture.js';

const WIRE = join(import.meta.dirname, '..', '..', '..', 'docs', 'wire.md');
const TITLE = '## 27. Operations of the official modules sitectl does not serve';

/**
 * The first cells of the table rows in §27 of docs/wire.md (`module.method`, backticks removed).
 * @throws when the section is missing or holds no table
 */
function documented(): string[] {
  const text = readFileSync(WIRE, 'utf8');
  const start = text.indexOf(`\n${TITLE}\n`);
  if (start < 0) throw new Error(`docs/wire.md has no section "${TITLE}"`);
  const rest = text.slice(start + TITLE.length + 2);
  const end = rest.search(/^## /m);
  const rows = (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => /^\|\s*`/.test(l));
  if (rows.length === 0) throw new Error('docs/wire.md §27 holds no table rows');
  return rows.map((l) => /^\|\s*`([^`]+)`\s*\|/.exec(l)?.[1] ?? l);
}

describe('docs/wire.md §27 and SDK_ONLY', () => {
  it('name the same SDK operations, each once, each with a reason', () => {
    const doc = documented();
    expect(doc.filter((k, i) => doc.indexOf(k) !== i), 'operations listed twice in docs/wire.md §27').toEqual([]);
    const listed = Object.keys(SDK_ONLY);
    expect(doc.filter((k) => !(k in SDK_ONLY)), 'in docs/wire.md §27 but not in SDK_ONLY').toEqual([]);
    expect(listed.filter((k) => !doc.includes(k)), 'in SDK_ONLY but not in docs/wire.md §27').toEqual([]);
    const text = readFileSync(WIRE, 'utf8');
    for (const k of listed) expect(new RegExp(`^\\| \`${k.replace(/[.]/g, '\\.')}\` \\| [^|]+ \\| \\S`, 'm').test(text), `${k} has a call and a reason in docs/wire.md §27`).toBe(true);
  });
});
