/**
 * The interactive browser: the component that ties the reducer (browser-state.ts), the key map
 * (browser-keys.ts), the pager (browser-pages.ts), the action flow (browser-actions.ts), the source link
 * (browser-link.ts) and the drawing (browser-view.tsx) to a terminal. One component serves `NOUN list
 * --interactive` (one pane), `events` (one live pane) and the dashboard (several panes and live refresh), as
 * k9s's one Browser shows every resource. It gets plain rows and callbacks (browser-spec.ts); it never calls
 * the API.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useApp, useInput, useStdout } from 'ink';
import { browserReducer, currentRow, initialBrowserState, initialPane } from './browser-state.js';
import { browserKey, osc52, sortKeys, type ViewKeys } from './browser-keys.js';
import type { BrowserProps, JumpView } from './browser-spec.js';
import { chromeRows, errorText, helpLines, stripRows } from './browser-layout.js';
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

/**
 * The live browser component. `:NOUN` replaces the view with the one the command's jump opens: a new screen
 * (state, readers, link) with that view's title, panes and zone, the jump and the exit kept.
 */
export function Browser(props: BrowserProps) {
  const [opened, setOpened] = useState<{ count: number; view?: JumpView }>({ count: 0 });
  const open = useCallback((view: JumpView) => setOpened(({ count }) => ({ count: count + 1, view })), []);
  const view = opened.view;
  const shown: BrowserProps = view ? { title: view.title, panes: view.panes, zone: view.zone, color: props.color, onExit: props.onExit, link: props.link, jump: props.jump } : props;
  return <BrowserScreen key={opened.count} {...shown} onOpen={open} />;
}

/** One view of the browser: its panes, read and drawn, until the user quits or `:` opens another (`onOpen`). */
function BrowserScreen(props: BrowserProps & { onOpen(view: JumpView): void }) {
  const size = useTerminalSize();
  const bodyHeight = Math.max(1, size.rows - chromeRows(props.panes.length) - stripRows(size.rows, props.strip !== undefined));
  const [state, dispatch] = useReducer(browserReducer, undefined, () =>
    initialBrowserState(
      props.panes.map((p) => initialPane(p.id, p.title, p.columns, p.sortable, p.sort, p.server, Boolean(p.search), p.searchWhen)),
      bodyHeight,
      props.link !== undefined,
    ),
  );
  const { exit } = useApp();
  const { stdout } = useStdout();
  const specOf = useCallback((id: string) => props.panes.find((p) => p.id === id)!, [props.panes]);

  useEffect(() => {
    dispatch({ type: 'resize', height: bodyHeight });
  }, [bodyHeight]);

  usePanePages(state, dispatch, specOf, props);
  useSourceLink(props.link, dispatch, state.relink, state.panes.map((p) => p.error ?? '').join('\u0000'));
  const actions = useActionFlow(dispatch, specOf, props.afterAction);

  // `:NOUN`: a word the jump does not take is refused here; another is opened, the view staying until it is.
  const { jump, onOpen } = props;
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  const jumpTo = useCallback(
    (word: string) => {
      if (!jump) return;
      const known = jump.words.find((w) => w.toLowerCase() === word.toLowerCase());
      if (!known) {
        dispatch({ type: 'flash', text: `no list named '${word}': ${jump.words.join(', ')}`, error: true });
        return;
      }
      dispatch({ type: 'flash', text: `opening ${known}…`, plain: true });
      jump.open(known).then(
        (view) => {
          if (live.current) onOpen(view);
        },
        (err: unknown) => {
          if (live.current) dispatch({ type: 'flash', text: `${known}: ${errorText(err)}`, error: true });
        },
      );
    },
    [jump, onOpen],
  );

  // Keys may come faster than frames: each press is read against the state the previous one left, not the last drawn.
  const latest = useRef(state);
  latest.current = state;
  useInput((input, key) => {
    let now = latest.current;
    const actionKeys = (specOf(now.panes[now.active]!.id).actions ?? []).map((a) => a.key);
    const keys: ViewKeys = { actions: actionKeys, sorts: sortKeys(now.panes[now.active]!.columns, actionKeys), words: jump?.words };
    // Keys typed faster than a frame (or sent by a script) arrive as one string: each is its own key press (on
    // the `:` line too, where Tab completes: `me` Tab Tab Enter in one read is `members`). The filter line's
    // editor reads a chunk itself.
    const presses = input.length > 1 && now.mode !== 'filter' && !key.ctrl && !key.meta ? [...input] : [input];
    for (const press of presses) {
      const outcome = browserKey(now, press, presses.length > 1 ? { return: press === '\r' || press === '\n', tab: press === '\t' } : key, keys);
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
        case 'jump':
          dispatch({ type: 'command-cancel' });
          jumpTo(outcome.word);
          return;
        case 'copy': {
          const row = currentRow(now);
          if (!row) {
            dispatch({ type: 'flash', text: 'no row to copy', error: true });
            return;
          }
          // OSC 52 ("set the clipboard"): the terminal, or tmux with set-clipboard, takes the text; ssh carries it.
          stdout.write(osc52(row.id));
          dispatch({ type: 'flash', text: `copied ${row.id} to the clipboard (OSC 52)`, plain: true });
          return;
        }
        case 'none':
          break;
      }
    }
  });

  // The help overlay scrolls when it is longer than the body: its length at this width.
  const activeSpec = specOf(state.panes[state.active]!.id);
  const helpLength = useMemo(() => {
    if (state.mode !== 'help') return 0;
    const acts = activeSpec.actions ?? [];
    const columns = state.panes[state.active]!.columns;
    return helpLines({ actions: acts, panes: props.panes.length, columns, sorts: sortKeys(columns, acts.map((a) => a.key)), jump: jump !== undefined, search: { what: activeSpec.search, when: activeSpec.searchWhen }, done: state.panes[state.active]!.done }, Math.max(20, size.columns - 1)).length;
  }, [state.mode, state.panes, state.active, activeSpec, props.panes.length, jump, size.columns]);
  useEffect(() => {
    if (state.mode === 'help') dispatch({ type: 'detail-loaded', lines: helpLength });
  }, [state.mode, helpLength]);

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
