/**
 * `--jq EXPRESSION` and `--template TEXT` (docs/manual/output.md "Output formats"; gh's `--jq` and `--template`): every
 * command with `--json` prints its JSON through one of them instead, so a script needs no jq on the machine.
 *
 * - `--jq` runs the expression with jq itself (the `jq-wasm` package: jq 1.7 compiled to WebAssembly, shipped
 *   inside the package, loaded only when the flag is given). As gh does: a string result is printed raw, any other
 *   value as JSON, indented on a terminal and one line per value when piped.
 * - `--template` renders a Handlebars template (the `handlebars` package) with the JSON as its context, HTML
 *   escaping off: `{{#each this}}{{id}} {{name}}{{nl}}{{/each}}`. There is no well-kept Go-template engine for
 *   Node; Handlebars has the same `{{ }}` shape, blocks for range/if, and helpers for gh's: `join`, `truncate`,
 *   `json`, `timeago`, `upper`, `lower`, `pad`, and `nl` / `tab` for a line break and a tab (a Handlebars string
 *   literal keeps `\n` as two characters).
 *
 * Both are checked before the command sends anything (a jq syntax error or a template that does not parse exits
 * 2); the command's JSON is gathered whole (`--json` is collected anyway) and shaped once the command is done.
 */
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type HandlebarsModule from 'handlebars';
import { ExitCode, UserError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { oneLine } from './text.js';

/**
 * Declares `-q, --jq` and `-t, --template` on `cmd` (core/json-shape.ts; gh's flags): the program adds them to
 * every command with `--json`; a command that always prints JSON (`api`) declares them itself. Once per command.
 */
export function addShapeFlags(cmd: Command): Command {
  if (cmd.options.some((o) => o.long === '--jq')) return cmd;
  return cmd
    .option('-q, --jq <expression>', 'filter the JSON output with a jq expression (implies --json; strings print raw)')
    .option('-t, --template <text>', "format the JSON output with a Handlebars template, e.g. '{{#each this}}{{id}}{{nl}}{{/each}}' (implies --json)");
}

/** What shapes a command's JSON output: one jq expression or one template (the flags are exclusive). */
export type JsonShape = { kind: 'jq'; expression: string } | { kind: 'template'; text: string };

/**
 * Checks `shape` before anything is sent: the jq expression compiles, the template parses.
 * @throws UserError (exit 2) naming the flag and jq's or Handlebars' own message
 */
export async function checkShape(shape: JsonShape): Promise<void> {
  if (shape.kind === 'jq') {
    if (!shape.expression.trim()) throw new UserError('--jq needs an expression', "e.g. --jq '.[].id'");
    const jq = await import('jq-wasm');
    try {
      await jq.raw('null', shape.expression, ['-c']);
    } catch (err) {
      const message = jqMessage(err);
      // Only a compile error is the expression's fault: on `null` a valid `.[]` fails at run time.
      if (/compile error/.test(message)) throw new UserError(`--jq: ${message}`, "the expression is jq's own language: https://jqlang.org/manual/");
    }
    return;
  }
  const { default: Handlebars } = await import('handlebars');
  try {
    Handlebars.precompile(shape.text, { noEscape: true });
  } catch (err) {
    throw new UserError(`--template: ${oneLine(err instanceof Error ? err.message : String(err))}`, 'templates are Handlebars: {{#each this}}{{id}}{{nl}}{{/each}}');
  }
}

/**
 * The text `shape` makes of `json` (the command's JSON output, one document), newline-terminated unless empty.
 * @param tty stdout is a terminal: jq's non-string results are indented there, one line each when piped
 * @throws UserError (exit 1) when jq fails on this input (`Cannot iterate over null`) or the template throws
 */
export async function shapeJson(json: string, shape: JsonShape, tty: boolean): Promise<string> {
  if (shape.kind === 'jq') {
    const jq = await import('jq-wasm');
    let out: string;
    try {
      out = await jq.raw(json, shape.expression, tty ? ['-r'] : ['-r', '-c']);
    } catch (err) {
      throw new UserError(`--jq: ${jqMessage(err)}`, undefined, ExitCode.Failure);
    }
    return out === '' || out.endsWith('\n') ? out : `${out}\n`;
  }
  const { default: Handlebars } = await import('handlebars');
  const env = Handlebars.create();
  registerHelpers(env);
  try {
    return env.compile(shape.text, { noEscape: true })(JSON.parse(json));
  } catch (err) {
    throw new UserError(`--template: ${oneLine(err instanceof Error ? err.message : String(err))}`, undefined, ExitCode.Failure);
  }
}

/** jq's message without the wrapper's prefix and the caret lines: `jq: error: syntax error, unexpected ...`. */
function jqMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text
    .replace(/^Failed to execute raw query: /, '')
    .split('\n')
    .filter((l) => l.trim() && !/^\s*\^+\s*$/.test(l) && !/^jq: \d+ compile error/.test(l));
  const compile = /compile error/.test(text) ? ' (compile error)' : '';
  const first = (lines[0] ?? text)
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .replace(/ \(Unix shell quoting issues\?\)/, '')
    .replace(/ at <top-level>, line \d+:$/, '');
  return oneLine(first) + compile;
}

type HandlebarsEnv = ReturnType<typeof HandlebarsModule.create>;

/** gh's template helpers, as Handlebars helpers (the last argument Handlebars passes is its options object). */
function registerHelpers(env: HandlebarsEnv): void {
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  env.registerHelper('join', (sep: unknown, list: unknown) => (Array.isArray(list) ? list.map(str).join(str(sep)) : str(list)));
  env.registerHelper('truncate', (width: unknown, text: unknown) => {
    const s = str(text);
    const n = Number(width);
    return Number.isFinite(n) && n > 0 && [...s].length > n ? `${[...s].slice(0, Math.max(1, n - 1)).join('')}…` : s;
  });
  env.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));
  // Handlebars string literals keep a backslash as it is: `{{nl}}` is the line break (`{{"\n"}}` in gh).
  env.registerHelper('nl', () => '\n');
  env.registerHelper('tab', () => '\t');
  env.registerHelper('upper', (text: unknown) => str(text).toUpperCase());
  env.registerHelper('lower', (text: unknown) => str(text).toLowerCase());
  env.registerHelper('pad', (width: unknown, text: unknown) => str(text).padEnd(Number(width) || 0));
  env.registerHelper('timeago', (when: unknown) => {
    const t = typeof when === 'string' || typeof when === 'number' ? new Date(when).getTime() : NaN;
    if (Number.isNaN(t)) return str(when);
    const s = Math.round((Date.now() - t) / 1000);
    const [n, unit] = Math.abs(s) < 60 ? [s, 'second'] : Math.abs(s) < 3600 ? [Math.round(s / 60), 'minute'] : Math.abs(s) < 86400 ? [Math.round(s / 3600), 'hour'] : [Math.round(s / 86400), 'day'];
    const abs = Math.abs(n);
    return `${abs} ${unit}${abs === 1 ? '' : 's'} ${s >= 0 ? 'ago' : 'from now'}`;
  });
}

/**
 * Holds what a command writes to stdout while it runs (its JSON), so `finish` can write it shaped to the real
 * stdout. `io` is switched to the holder (and counts as piped: commands print JSON) until `finish`.
 */
export function holdStdout(io: IOStreams, shape: JsonShape): { finish(): Promise<void> } {
  const real = io.stdout;
  const tty = io.isStdoutTTY;
  const chunks: Buffer[] = [];
  const holder = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  io.stdout = holder;
  io.isStdoutTTY = false;
  let finished = false;
  return {
    async finish() {
      if (finished) return;
      finished = true;
      io.stdout = real;
      io.isStdoutTTY = tty;
      const json = Buffer.concat(chunks).toString('utf8');
      if (!json.trim()) return;
      const out = await shapeJson(json, shape, tty);
      if (out) await new Promise<void>((resolve, reject) => real.write(out, (e) => (e ? reject(e) : resolve())));
    },
  };
}
