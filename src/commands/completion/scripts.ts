/**
 * Shell completion scripts generated from the Commander tree (docs/architecture.md "Output and interaction"; the shape of `gh completion
 * -s SHELL`): one static script per shell listing every noun, verb, alias and flag, so a TAB never starts
 * node. Regenerate after an upgrade (the README says how to install it).
 *
 * The scripts find the command path the same way in every shell: words that name a subcommand of the current
 * node descend into it, flags are skipped (with their value when the flag takes one and was not given as
 * `--flag=value`), anything else is an argument.
 */
import type { Command } from 'commander';
import { type CompletionValues, completionValues } from '../../core/flag-values.js';

/** One node of the command tree as the scripts need it. */
export interface CompletionNode {
  /** The command path from the root, space-separated ('' for the root). */
  path: string;
  description: string;
  /** Subcommands by name, with their aliases. */
  commands: Array<{ name: string; aliases: string[]; description: string }>;
  /** Flags: long and short forms, description, whether a value follows and what completes it (core/flag-values.ts). */
  options: Array<{ long?: string; short?: string; description: string; takesValue: boolean; values?: CompletionValues }>;
  /** The words that complete the command's first argument (`browse NOUN`), when it has a fixed set. */
  argWords?: readonly string[];
}

/** The shells a script is written for. */
export type Shell = 'bash' | 'zsh' | 'fish';

/** Flattens a Commander tree (every noun registered) into nodes, root first. Help commands are left out. */
export function completionTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, path: string) => {
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    const options: CompletionNode['options'] = cmd.options
      .filter((o) => !o.hidden)
      .map((o) => ({ long: o.long, short: o.short, description: o.description, takesValue: o.required, values: o.required ? completionValues(o) : undefined }));
    options.push({ long: '--help', short: '-h', description: 'show help', takesValue: false });
    const first = cmd.registeredArguments[0];
    const args = first ? completionValues(first) : undefined;
    nodes.push({
      path,
      description: cmd.description(),
      commands: subs.map((c) => ({ name: c.name(), aliases: c.aliases(), description: c.description() })),
      options,
      ...(args?.kind === 'words' ? { argWords: args.words } : {}),
    });
    for (const sub of subs) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(root, '');
  return nodes;
}

/** Every alias mapped to its command name, per parent path (`services ls` -> `services list`). */
function aliasCases(nodes: CompletionNode[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const n of nodes) for (const c of n.commands) for (const a of c.aliases) out.push([n.path ? `${n.path} ${a}` : a, n.path ? `${n.path} ${c.name}` : c.name]);
  return out;
}

/** Flags that take a value anywhere in the tree (the path scan skips their argument). */
function valueFlags(nodes: CompletionNode[]): string[] {
  const set = new Set<string>();
  for (const n of nodes) for (const o of n.options) if (o.takesValue) for (const f of [o.long, o.short]) if (f) set.add(f);
  return [...set].sort();
}

/** The command that prints the names of a lookup, one per line (the second column of its piped rows). */
const LOOKUPS: Record<'profiles' | 'sites', string> = { profiles: 'profile list', sites: 'sites list' };

/**
 * One entry per flag whose value completes from a set: the `case` pattern (`PATH|FLAG`; a root flag, which
 * Commander takes after any subcommand, as `*|FLAG`), and its values.
 */
function valueCases(nodes: CompletionNode[]): Array<{ pattern: string; values: CompletionValues }> {
  const out: Array<{ pattern: string; values: CompletionValues }> = [];
  for (const n of nodes) {
    for (const o of n.options) {
      if (!o.values) continue;
      for (const flag of [o.long, o.short]) if (flag) out.push({ pattern: n.path ? `${sq(`${n.path}|${flag}`)}` : `*${sq(`|${flag}`)}`, values: o.values });
    }
  }
  // The root's flags last: a noun's own flag of the same name wins.
  return [...out.filter((c) => !c.pattern.startsWith('*')), ...out.filter((c) => c.pattern.startsWith('*'))];
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** One line, no tabs, for descriptions inside generated code. */
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The completion script for `shell`, for the program named `bin` and, registered to the same function, the names in
 * `also` (the name it was invoked as: `sitectl.js` for `./bin/sitectl.js`, which bash and zsh look up by the part
 * after the last slash, as fish does).
 * @throws RangeError for a shell other than bash, zsh or fish
 */
export function completionScript(shell: Shell, nodes: CompletionNode[], bin: string, also: readonly string[] = []): string {
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const names = [bin, ...also.filter((n) => n !== bin)];
  switch (shell) {
    case 'bash':
      return bashScript(nodes, bin, fn) + names.slice(1).map((n) => `complete -o default -F ${fn} ${n}\n`).join('');
    case 'zsh':
      return zshScript(nodes, bin, fn)
        .replace(`#compdef ${bin}\n`, `#compdef ${names.join(' ')}\n`)
        .replace(`compdef ${fn} ${bin}\n`, `compdef ${fn} ${names.join(' ')}\n`);
    case 'fish':
      return names.map((n, i) => (i === 0 ? fishScript(nodes, n, fn) : fishScript(nodes, n, fn).replace(/^[\s\S]*?\ncomplete -c /, 'complete -c '))).join('');
    default:
      throw new RangeError(`unknown shell ${String(shell)}`);
  }
}

/**
 * Shell code (bash and zsh share it) that sets `path` to the command path of the words before the cursor.
 * @param word the expression of the i-th word after the program name (`${COMP_WORDS[i]}`, zsh `${words[i+1]}`)
 * @param upto the loop bound: how many words come before the cursor, the program name included
 */
function pathScan(nodes: CompletionNode[], word: string, upto: string): string {
  const subcommands = nodes.map((n) => `      ${sq(n.path)}) subs=${sq(n.commands.flatMap((c) => [c.name, ...c.aliases]).join(' '))} ;;`).join('\n');
  const aliases = aliasCases(nodes).map(([a, c]) => `      ${sq(a)}) cmdpath=${sq(c)} ;;`).join('\n');
  return `  local cmdpath='' skip=0 w subs i
  local value_flags=' ${valueFlags(nodes).join(' ')} '
  for ((i = 1; i < ${upto}; i++)); do
    w=${word}
    if ((skip)); then skip=0; continue; fi
    case "$w" in
      --*=*) continue ;;
      -*) [[ "$value_flags" == *" $w "* ]] && skip=1; continue ;;
    esac
    case "$cmdpath" in
${subcommands}
      *) subs='' ;;
    esac
    if [[ " $subs " == *" $w "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$w"
      case "$cmdpath" in
${aliases}
      esac
    fi
  done`;
}

function bashScript(nodes: CompletionNode[], bin: string, fn: string): string {
  const cases = nodes
    .map((n) => {
      const words = [...n.commands.map((c) => c.name), ...(n.argWords ?? []), ...n.options.flatMap((o) => [o.long, o.short].filter(Boolean) as string[])];
      return `    ${sq(n.path)}) cands=${sq(words.join(' '))} ;;`;
    })
    .join('\n');
  const bashValues = valueCases(nodes)
    .map(({ pattern, values }) =>
      values.kind === 'words'
        ? `        ${pattern}) vals=$'${values.words.join('\\n')}'; list=${values.list ? 1 : 0} ;;`
        : `        ${pattern}) vals=$("\${COMP_WORDS[0]}" ${LOOKUPS[values.command]} 2>/dev/null | cut -f2) ;;`,
    )
    .join('\n');
  return `# bash completion for ${bin} (generated by \`${bin} completion bash\`)
${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
${pathScan(nodes, '${COMP_WORDS[i]}', 'COMP_CWORD')}
  local cands
  case "$cmdpath" in
${cases}
    *) cands='' ;;
  esac
  if [[ "$cur" != -* ]]; then
    local prev=\${COMP_WORDS[COMP_CWORD-1]}
    if [[ "$value_flags" == *" $prev "* ]]; then
      local vals='' list=0 IFS=$'\\n'
      case "$cmdpath|$prev" in
${bashValues}
        *) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      esac
      if ((list)) && [[ "$cur" == *,* ]]; then
        COMPREPLY=($(compgen -P "\${cur%,*}," -W "$vals" -- "\${cur##*,}"))
      else
        COMPREPLY=($(compgen -W "$vals" -- "$cur"))
      fi
      return
    fi
    cands=$(printf '%s\\n' $cands | grep -v '^-')
  fi
  COMPREPLY=($(compgen -W "$cands" -- "$cur"))
}
complete -o default -F ${fn} ${bin}
`;
}

function zshScript(nodes: CompletionNode[], bin: string, fn: string): string {
  const entry = (name: string, description: string) => sq(`${name.replace(/:/g, '\\:')}:${flat(description)}`);
  const cases = nodes
    .map((n) => {
      const cmds = n.commands.map((c) => entry(c.name, c.description)).join(' ');
      const opts = n.options.flatMap((o) => [o.long, o.short].filter(Boolean).map((f) => entry(f as string, o.description))).join(' ');
      return `    ${sq(n.path)}) cmds=(${cmds}); opts=(${opts}); args=(${(n.argWords ?? []).map(sq).join(' ')}) ;;`;
    })
    .join('\n');
  const zshValues = valueCases(nodes)
    .map(({ pattern, values }) =>
      values.kind === 'words'
        ? `      ${pattern}) vals=(${values.words.map(sq).join(' ')}); list=${values.list ? 1 : 0} ;;`
        : `      ${pattern}) vals=(\${(f)"$(\${words[1]} ${LOOKUPS[values.command]} 2>/dev/null | cut -f2)"}) ;;`,
    )
    .join('\n');
  return `#compdef ${bin}
# zsh completion for ${bin} (generated by \`${bin} completion zsh\`)
${fn}() {
${pathScan(nodes, '${words[i+1]}', 'CURRENT - 1')}
  local -a cmds opts args
  case "$cmdpath" in
${cases}
  esac
  local prev=\${words[CURRENT-1]}
  if [[ "$value_flags" == *" $prev "* ]]; then
    local -a vals
    local list=0
    case "$cmdpath|$prev" in
${zshValues}
      *) _files; return ;;
    esac
    if ((list)); then _values -s , 'value' $vals; else compadd -a vals; fi
    return
  fi
  if [[ "\${words[CURRENT]}" == -* ]]; then
    _describe -t options 'option' opts
  elif (( \${#cmds} )); then
    _describe -t commands 'command' cmds
  elif (( \${#args} )); then
    compadd -a args
  else
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautoload ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${bin}
fi
`;
}

function fishScript(nodes: CompletionNode[], bin: string, fn: string): string {
  const lines: string[] = [];
  for (const n of nodes) {
    const at = `${fn}_at ${sq(n.path)}`;
    for (const c of n.commands) {
      for (const name of [c.name, ...c.aliases]) lines.push(`complete -c ${bin} -f -n ${sq(at)} -a ${sq(name)} -d ${sq(flat(c.description))}`);
    }
    if (n.argWords?.length) lines.push(`complete -c ${bin} -f -n ${sq(at)} -a ${sq(n.argWords.join(' '))}`);
    for (const o of n.options) {
      const parts = [`complete -c ${bin} -n ${sq(at)}`];
      if (o.long) parts.push(`-l ${o.long.slice(2)}`);
      if (o.short) parts.push(`-s ${o.short.slice(1)}`);
      if (o.takesValue) parts.push(o.values ? '-x' : '-r');
      if (o.values?.kind === 'words') {
        const words = o.values.words.join(' ');
        parts.push(`-a ${sq(o.values.list ? `(__fish_complete_list , '${fn}_words ${words}')` : words)}`);
      } else if (o.values?.kind === 'lookup') {
        parts.push(`-a ${sq(`(${fn}_lookup ${LOOKUPS[o.values.command]})`)}`);
      }
      parts.push(`-d ${sq(flat(o.description))}`);
      lines.push(parts.join(' '));
    }
  }
  const subcommands = nodes.map((n) => `      case ${sq(n.path)}\n        set subs ${n.commands.flatMap((c) => [c.name, ...c.aliases]).map(sq).join(' ')}`).join('\n');
  const aliases = aliasCases(nodes).map(([a, c]) => `        case ${sq(a)}\n          set cmdpath ${sq(c)}`).join('\n');
  return `# fish completion for ${bin} (generated by \`${bin} completion fish\`)
function ${fn}_path
  set -l value_flags ${valueFlags(nodes).map(sq).join(' ')}
  set -l cmdpath ''
  set -l skip 0
  for w in (commandline -opc)[2..-1]
    if test $skip = 1
      set skip 0
      continue
    end
    switch $w
      case '--*=*'
        continue
      case '-*'
        contains -- $w $value_flags; and set skip 1
        continue
    end
    set -l subs
    switch $cmdpath
${subcommands}
    end
    if contains -- $w $subs
      if test -z "$cmdpath"
        set cmdpath $w
      else
        set cmdpath "$cmdpath $w"
      end
      switch $cmdpath
${aliases}
      end
    end
  end
  echo $cmdpath
end
function ${fn}_at
  test (${fn}_path) = $argv[1]
end
function ${fn}_words
  string split ' ' -- $argv
end
function ${fn}_lookup
  set -l program (commandline -opc)[1]
  eval (string escape -- $program) $argv 2>/dev/null | cut -f2
end
complete -c ${bin} -e
${lines.join('\n')}
`;
}
