/**
 * The interactive browser: the component that ties the reducer (browser-state.ts), the key map
 * (browser-keys.ts), the pager (browser-pages.ts), the action flow (browser-actions.ts), the source link
 * (browser-link.ts) and the drawing (browser-view.tsx) to a terminal. One component serves `NOUN list
 * --interactive` (one pane), `events` (one live pane) and the dashboard (several panes and live refresh), as
 * k9s's one Browser shows every resource. It gets plain rows and callbacks (browser-spec.ts); it never calls
 * the API.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useApp, useInput, useStdout } from 'ink';
import { browserReducer, currentRow, initialBrowserState, initialPane } from './browser-state.js';
import { browserKey } from './browser-keys.js';
import type { BrowserProps } from './browser-spec.js';
import { chromeRows, errorText, stripRows } from './browser-layout.js';
import { usePanePages } from './browser-pages.js';
import { useSourceLink } from './browser-link.js';
import { useActionFlow } from './browser-actions.js';
import { BrowserView } from './browser-view.js';

/** The output stream's size, followed on resize. */
function useTerminalSize() {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }));
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** The live browser component. */
export function Browser(props: BrowserProps) {
  const size = useTerminalSize();
  const bodyHeight = Math.max(1, size.rows - chromeRows(props.panes.length) - stripRows(size.rows, props.strip !== undefined));
  const [state, dispatch] = useReducer(browserReducer, undefined, () =>
    initialBrowserState(
      props.panes.map((p) => initialPane(p.id, p.title, p.columns, p.sortable, p.sort, p.server)),
      bodyHeight,
      props.link !== undefined,
    ),
  );
  const { exit } = useApp();
  const specOf = useCallback((id: string) => props.panes.find((p) => p.id === id)!, [props.panes]);

  useEffect(() => {
    dispatch({ type: 'resize', height: bodyHeight });
  }, [bodyHeight]);

  usePanePages(state, dispatch, specOf, props);
  useSourceLink(props.link, dispatch, state.relink, state.panes.map((p) => p.error ?? '').join('\u0000'));
  const actions = useActionFlow(dispatch, specOf, props.afterAction);

  // Keys may come faster than frames: each press is read against the state the previous one left, not the last drawn.
  const latest = useRef(state);
  latest.current = state;
  useInput((input, key) => {
    let now = latest.current;
    const actionKeys = (specOf(now.panes[now.active]!.id).actions ?? []).map((a) => a.key);
    // Keys typed faster than a frame (or sent by a script) arrive as one string: each is its own key press.
    const presses = input.length > 1 && now.mode !== 'filter' && !key.ctrl && !key.meta ? [...input] : [input];
    for (const press of presses) {
      const outcome = browserKey(now, press, presses.length > 1 ? { return: press === '\r' || press === '\n', tab: press === '\t' } : key, actionKeys);
      switch (outcome.kind) {
        case 'actions':
          for (const a of outcome.actions) {
            now = browserReducer(now, a);
            dispatch(a);
          }
          latest.current = now;
          break;
        case 'quit':
          actions.answer(false);
          props.onExit(outcome.interrupted ? 130 : 0);
          exit();
          return;
        case 'answer':
          actions.answer(outcome.yes);
          return;
        case 'run':
          void actions.run(outcome.key, now);
          return;
        case 'none':
          break;
      }
    }
  });

  // The detail view of the row under the cursor, read when it opens.
  const [detail, setDetail] = useState<{ id: string; lines: Array<[string, string]> } | undefined>();
  const active = state.panes[state.active]!;
  const detailRow = state.mode === 'detail' ? currentRow(state) : undefined;
  const detailOf = detailRow ? specOf(active.id).detail : undefined;
  useEffect(() => {
    if (!detailRow || !detailOf) return;
    let live = true;
    const show = (lines: Array<[string, string]>) => {
      if (!live) return;
      setDetail({ id: detailRow.id, lines });
      dispatch({ type: 'detail-loaded', lines: lines.length });
    };
    detailOf(detailRow.id).then(show, (err: unknown) => show([['error', errorText(err)]]));
    return () => {
      live = false;
    };
  }, [detailRow, detailOf]);

  return (
    <BrowserView
      state={state}
      spec={props}
      columns={size.columns}
      detail={detail && detail.id === detailRow?.id ? detail.lines : undefined}
      strip={stripRows(size.rows, props.strip !== undefined) ? props.strip : undefined}
    />
  );
}
