/**
 * The examples people copy, read out of the README's shell blocks and out of `--help` texts, and sorted into
 * those that run as written and those that hold a placeholder (`SERVICE_ID`, `7c1e`, `[--prune]`, `$TOKEN`...).
 * tests/integration/cli/examples.test.ts runs the first kind on the demo data.
 */
import { parse } from 'shell-quote';

/** One example: the line as written (continuations joined, trailing comment dropped) and where it is. */
export interface Example {
  line: string;
  /** `README.md:316` or `sitectl bookings create --help`. */
  where: string;
  /** The shell block it belongs to (README), in order: its examples share shell variables. */
  block?: number;
}

/** What the examples before this one in its block made: shell variables they set, files they wrote. */
export interface BlockState {
  assigned: Set<string>;
  produced: Set<string>;
}

/** Flags whose value is a file the command reads. */
const INPUT_FILE_FLAGS = new Set(['--file', '-f', '--ids-file', '--query-file', '--input', '--data-file', '--resume']);

/**
 * Why an example cannot run as written, or undefined when it can: a word in capitals that names what to put
 * there (`SERVICE_ID`, `JOURNAL`, `ORDER_ID`), a `$VARIABLE` no earlier example of its block set, `<...>`, an
 * optional `[--flag]`, alternatives `confirm|pending`, an ellipsis, a made-up id (`7c1e`, `744db7`: four to six hex
 * digits mixing letters and digits, as the README writes an id prefix; or a whole UUID), or a file of the
 * reader's own (`--file service.json`) that no earlier example wrote (`-o classes.yaml`, `> ids.txt`). The
 * demo data's own ids are written with eight digits (`orders get 0e623171`) and run.
 */
export function placeholderOf(line: string, state: BlockState = { assigned: new Set(), produced: new Set() }): string | undefined {
  const caps = /(?<![\w$-])((?:[A-Z]+_)*(?:ID|IDS|JOURNAL|FILE|URL|PORT|CODE|TOKEN|ADDRESS|PASSWORD|SECRET|SERVICE|STAFF|MEMBER|PLAN|ORDER|BOOKING|OTHER|DIR|PATH|NAME|EMAIL|RUN))(?![\w=:-])/.exec(line);
  if (caps) return caps[1];
  for (const m of line.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)) if (!state.assigned.has(m[1]!)) return `$${m[1]}`;
  const shaped = /<[A-Za-z][^>]*>|\s\[(?:--|[A-Za-z])[^\]]*\]|[a-z]\|[a-z]|…|\.\.\.(?!\/)/.exec(line);
  if (shaped) return shaped[0].trim();
  const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/.exec(line);
  if (uuid) return uuid[0];
  const hex = /(?<![\w.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{4,6}(?![\w.-])/.exec(line);
  if (hex) return hex[0];
  const words = parse(line).map((w) => (typeof w === 'string' ? w : ''));
  for (let i = 0; i < words.length - 1; i++) {
    const file = words[i + 1]!;
    // `api -f key=value` is a field, not a file.
    if (INPUT_FILE_FLAGS.has(words[i]!) && file !== '-' && !file.includes('=') && !state.produced.has(file)) return file;
  }
  return undefined;
}

/** The files a line writes: `-o FILE`, `> FILE`. */
export function producedBy(line: string): string[] {
  const words = parse(line);
  const out: string[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (typeof next !== 'string') continue;
    if (w === '-o' || (typeof w === 'object' && 'op' in w && w.op === '>')) out.push(next);
  }
  return out;
}

/** Shell variables a line assigns at its start (`ID=$(...)`, `A=1; B=2`). */
export function assignedBy(line: string): string[] {
  return [...line.matchAll(/(?:^|;\s*)([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1]!);
}

/** Whether the line runs `sitectl` (as its command, after `|`, `;`, `&&`, inside `$(...)`, or after VAR=value). */
export function runsSitectl(line: string): boolean {
  return /(?:^|[|;&(]\s*|^(?:[A-Z_]+=\S*\s+)+)sitectl\s/.test(line);
}

/**
 * Whether the line needs a shell: anything beyond a plain `sitectl` with words (pipes, redirections, variables,
 * command substitution, several commands). shell-quote's parser says: it yields an operator for those.
 */
export function needsShell(line: string): boolean {
  if (/\$/.test(line.replace(/'[^']*'/g, ''))) return true;
  const words = parse(line);
  return words.some((w) => typeof w !== 'string') || words[0] !== 'sitectl';
}

/** The words of a plain `sitectl ...` line, after `sitectl`, as a shell would pass them. */
export function argvOf(line: string): string[] {
  const words = parse(line);
  if (words.some((w) => typeof w !== 'string')) throw new Error(`not a plain command: ${line}`);
  return (words as string[]).slice(1);
}

/** Drops a trailing `# comment` (a `#` after a blank, outside quotes). */
export function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** The `sitectl` lines of the ```sh blocks of a Markdown text, in order, with their block numbers. */
export function markdownExamples(text: string, file: string): Example[] {
  const out: Example[] = [];
  const lines = text.split('\n');
  let block = -1;
  let inSh = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^```/.test(raw)) {
      inSh = !inSh && /^```(?:sh|bash|shell)\s*$/.test(raw);
      if (inSh) block++;
      continue;
    }
    if (!inSh) continue;
    let line = raw;
    const start = i + 1;
    while (line.endsWith('\\') && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!.trimStart();
    line = withoutComment(line.trim());
    if (line && runsSitectl(line)) out.push({ line, where: `${file}:${start}`, block });
  }
  return out;
}

/** The example lines of a `--help` text: the `sitectl ...` lines under an `Example:` or `Examples:` heading. */
export function helpExamples(text: string, where: string): Example[] {
  const out: Example[] = [];
  let inExamples = false;
  for (const raw of text.split('\n')) {
    if (/^Examples?:\s*$/.test(raw.trim())) {
      inExamples = true;
      continue;
    }
    if (!inExamples) continue;
    if (!raw.trim()) continue;
    if (!/^\s/.test(raw)) {
      inExamples = false;
      continue;
    }
    const line = withoutComment(raw.trim());
    if (runsSitectl(line)) out.push({ line, where });
  }
  return out;
}
