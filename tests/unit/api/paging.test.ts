import { describe, expect, it } from 'vitest';
import { collect, cursorPages, items, offsetPages, type Page } from '../../../src/api/paging.js';

/** A fake offset endpoint over `n` numbers that records the requests it got. */
function offsetSource(n: number, opts: { total?: boolean; cap?: number } = {}) {
  const calls: { limit: number; offset: number }[] = [];
  const data = Array.from({ length: n }, (_, i) => i);
  const fetch = async ({ limit, offset }: { limit: number; offset: number }): Promise<Page<number>> => {
    calls.push({ limit, offset });
    const page = data.slice(offset, offset + Math.min(limit, opts.cap ?? limit));
    return {
      items: page,
      pagingMetadata: { count: page.length, offset, ...(opts.total === false ? { tooManyToCount: true } : { total: n }) },
    };
  };
  return { calls, fetch };
}

describe('offsetPages', () => {
  it('walks offset += limit until offset + count reaches total', async () => {
    const src = offsetSource(25);
    const got = await collect(items(offsetPages(src.fetch, { pageSize: 10 })));
    expect(got).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(src.calls).toEqual([
      { limit: 10, offset: 0 },
      { limit: 10, offset: 10 },
      { limit: 10, offset: 20 },
    ]);
  });

  it('reads one page ahead: the next request is out before the current page is consumed', async () => {
    const src = offsetSource(30);
    const pages = offsetPages(src.fetch, { pageSize: 10 });
    const first = await pages.next();
    expect(first.value?.items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(src.calls).toEqual([
      { limit: 10, offset: 0 },
      { limit: 10, offset: 10 },
    ]);
    await pages.return(undefined);
    expect(src.calls).toHaveLength(2);
  });

  it('a failed read-ahead surfaces when its page is asked for, not before', async () => {
    let n = 0;
    const pages = offsetPages(
      async ({ offset }) => {
        n += 1;
        if (offset > 0) throw new Error('boom');
        return { items: [1, 2], pagingMetadata: { count: 2, offset, total: 4 } };
      },
      { pageSize: 2 },
    );
    expect((await pages.next()).value?.items).toEqual([1, 2]);
    expect(n).toBe(2);
    await expect(pages.next()).rejects.toThrow('boom');
  });

  it('stops after a full last page when the total says so (no empty extra request)', async () => {
    const src = offsetSource(20);
    await collect(items(offsetPages(src.fetch, { pageSize: 10 })));
    expect(src.calls).toHaveLength(2);
  });

  it('without a total keeps going while pages are full', async () => {
    const src = offsetSource(20, { total: false });
    const got = await collect(items(offsetPages(src.fetch, { pageSize: 10 })));
    expect(got).toHaveLength(20);
    expect(src.calls.map((c) => c.offset)).toEqual([0, 10, 20]);
  });

  it('stops at the limit and asks only for what is left', async () => {
    const src = offsetSource(100);
    const got = await collect(items(offsetPages(src.fetch, { pageSize: 10, limit: 25 })));
    expect(got).toHaveLength(25);
    expect(src.calls).toEqual([
      { limit: 10, offset: 0 },
      { limit: 10, offset: 10 },
      { limit: 5, offset: 20 },
    ]);
  });

  it('does not skip items when the server caps the page below the limit', async () => {
    const src = offsetSource(30, { cap: 10 });
    const got = await collect(items(offsetPages(src.fetch, { pageSize: 25 })));
    expect(got).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('an empty first page ends the iteration', async () => {
    const src = offsetSource(0);
    expect(await collect(items(offsetPages(src.fetch, { pageSize: 10 })))).toEqual([]);
    expect(src.calls).toHaveLength(1);
  });

  it('rejects a bad page size', async () => {
    const src = offsetSource(1);
    await expect(collect(offsetPages(src.fetch, { pageSize: 0 }))).rejects.toThrow(RangeError);
  });
});

describe('cursorPages', () => {
  it('follows cursors.next, sends the cursor only after the first page, and crosses an empty page', async () => {
    const pages: Record<string, Page<string>> = {
      first: { items: ['a', 'b'], pagingMetadata: { count: 2, cursors: { next: 'c1' }, hasNext: true } },
      c1: { items: [], pagingMetadata: { count: 0, cursors: { next: 'c2' }, hasNext: true } },
      c2: { items: ['c'], pagingMetadata: { count: 1, cursors: { next: null }, hasNext: false } },
    };
    const calls: { limit: number; cursor?: string }[] = [];
    const got = await collect(
      items(
        cursorPages(async (req) => {
          calls.push(req);
          return pages[req.cursor ?? 'first'];
        }, { pageSize: 2 }),
      ),
    );
    expect(got).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([{ limit: 2 }, { limit: 2, cursor: 'c1' }, { limit: 2, cursor: 'c2' }]);
  });

  it('stops at the limit without fetching further pages', async () => {
    let n = 0;
    const calls: number[] = [];
    const got = await collect(
      items(
        cursorPages(async (req) => {
          calls.push(req.limit);
          n++;
          return { items: [n * 10, n * 10 + 1, n * 10 + 2].slice(0, req.limit), pagingMetadata: { cursors: { next: `c${n}` } } };
        }, { pageSize: 3, limit: 5 }),
      ),
    );
    expect(got).toEqual([10, 11, 12, 20, 21]);
    expect(calls).toEqual([3, 2]);
  });

  it('stops when the server repeats the same cursor', async () => {
    let calls = 0;
    const got = await collect(
      items(
        cursorPages(async () => {
          calls++;
          return { items: [calls], pagingMetadata: { cursors: { next: 'same' } } };
        }),
      ),
    );
    expect(got).toEqual([1, 2]);
  });
});

describe('collect', () => {
  it('returns at most limit values and stops the source', async () => {
    let produced = 0;
    async function* source() {
      for (let i = 0; i < 100; i++) {
        produced++;
        yield i;
      }
    }
    expect(await collect(source(), { limit: 3 })).toEqual([0, 1, 2]);
    expect(produced).toBe(3);
    expect(await collect(source(), { limit: 0 })).toEqual([]);
  });
});
