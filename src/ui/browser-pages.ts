/**
 * The browser's pager, as a hook: reads each pane's pages through the command's readers. A pane is read from its
 * first page at start (the pane on screen first, the others once its first page is drawn), on `r`, on a new
 * server filter or sort and when told of a change (interval, live notices); the next page only once the cursor
 * comes within two screens of the last loaded row, or at once after a page of the whole list so far
 * (UiPage.whole), which replaces the rows shown. A reader replaced by a newer one (a new filter while a page was
 * on its way) has its late page dropped.
 */
import { type Dispatch, useCallback, useEffect, useRef } from 'react';
import { type BrowserAction, type BrowserState, searchesText, viewedRows } from './browser-state.js';
import type { BrowserProps, ColumnSort, PageReader, PaneSpec } from './browser-spec.js';
import { errorText } from './browser-layout.js';

export function usePanePages(
  state: BrowserState,
  dispatch: Dispatch<BrowserAction>,
  specOf: (id: string) => PaneSpec,
  props: Pick<BrowserProps, 'intervalMs' | 'live'>,
): void {
  const readers = useRef(new Map<string, { reader: PageReader; generation: number }>());
  const seenReload = useRef(new Map<string, number>());
  const inflight = useRef(new Set<string>());

  const load = useCallback(
    async (id: string, fresh: boolean, server: string, sort: ColumnSort | undefined, text: string, onFirstPage?: () => void) => {
      let entry = readers.current.get(id);
      if (fresh || !entry) {
        const generation = (entry?.generation ?? 0) + 1;
        try {
          entry = { reader: specOf(id).open(server, sort, text), generation };
        } catch (err) {
          readers.current.set(id, { reader: { next: () => Promise.reject(err) }, generation });
          dispatch({ type: 'load-failed', pane: id, error: errorText(err) });
          return;
        }
        readers.current.set(id, entry);
      }
      const { reader, generation } = entry;
      const slot = `${id}#${generation}`;
      if (inflight.current.has(slot)) return;
      inflight.current.add(slot);
      try {
        for (let first = fresh; ; first = false) {
          dispatch({ type: 'loading', pane: id });
          const page = await reader.next();
          if (readers.current.get(id)?.generation !== generation) return;
          dispatch({ type: 'loaded', pane: id, rows: page.rows, done: page.done, total: page.total, replace: first || Boolean(page.whole), whole: page.whole });
          if (first) onFirstPage?.();
          if (!page.whole || page.done) return;
        }
      } catch (err) {
        if (readers.current.get(id)?.generation !== generation) return;
        dispatch({ type: 'load-failed', pane: id, error: errorText(err) });
      } finally {
        inflight.current.delete(slot);
      }
    },
    [specOf, dispatch],
  );

  const reloadKey = state.panes.map((p) => `${p.id}:${p.reload}`).join(',');
  useEffect(() => {
    const due = state.panes.filter((p) => seenReload.current.get(p.id) !== p.reload);
    for (const p of due) seenReload.current.set(p.id, p.reload);
    const read = (p: (typeof due)[number], onFirstPage?: () => void) => load(p.id, true, p.server, p.serverSort, searchesText(p) ? p.filter : '', onFirstPage);
    // The pane on screen with nothing to show yet is read first, the others once its first page is drawn: they
    // share one thread, and a busy week's panes, read whole, would otherwise hold back the first paint.
    const shown = due.find((p) => p.id === state.panes[state.active]!.id && p.rows.length === 0);
    if (!shown || due.length === 1) {
      for (const p of due) void read(p);
      return;
    }
    let rest = false;
    const readRest = () => {
      if (rest) return;
      rest = true;
      for (const p of due) if (p !== shown) void read(p);
    };
    void read(shown, () => setTimeout(readRest, 0)).finally(readRest);
    // The panes are read when their reload counter moves, not on every other change of the state.
  }, [reloadKey, load]);

  const active = state.panes[state.active]!;
  const viewedCount = viewedRows(active).length;
  useEffect(() => {
    if (active.loading || active.done || active.error || active.rows.length === 0) return;
    if (active.cursor + 2 * state.height >= viewedCount) void load(active.id, false, active.server, active.serverSort, searchesText(active) ? active.filter : '');
  }, [active.id, active.cursor, active.loading, active.done, active.error, active.server, active.serverSort, active.search, active.searchWhen, active.filter, viewedCount, state.height, load]);

  useEffect(() => {
    if (!props.intervalMs) return;
    const timer = setInterval(() => dispatch({ type: 'refresh' }), props.intervalMs);
    return () => clearInterval(timer);
  }, [props.intervalMs, dispatch]);

  useEffect(() => {
    if (!props.live) return;
    return props.live((ids) => {
      if (!ids) dispatch({ type: 'refresh' });
      else for (const id of ids) dispatch({ type: 'refresh', pane: id });
    });
  }, [props.live, dispatch]);
}
