/**
 * The Commander root (docs/architecture.md "Layout and dependency direction"; docs/architecture.md "Output and interaction"). Built in a factory so every run and every test gets
 * a fresh program (tj/commander.js#1565): `exitOverride()` turns exits into thrown CommanderErrors that main.ts
 * maps to exit codes, and `configureOutput()` sends help and errors through ctx.io.
 *
 * Nouns are registered lazily (Shopify/cli#7010): every noun is listed with its name, aliases and description from
 * its header in commands/nouns.ts, but only the module of the noun being run is imported (one chunk per noun in the
 * bundle, its verbs static inside it), so `--help` and `profile ...` do not load the services verbs, the bulk
 * engine and the schemas.
 */
import { Argument, Command, Help, Option } from 'commander';
import { completesWith } from './core/flag-values.js';
import type { Shell } from './commands/completion/scripts.js';
import { nounNamed } from './commands/noun-list.js';
import { NOUNS } from './commands/nouns.js';
import type { Context } from './context.js';
import { UserError } from './core/errors.js';
import { parseDecimal } from './core/numbers.js';
import { checkCommandInput } from './core/ids.js';
import { VERSION } from './core/version.js';
import { addShapeFlags as addShapeFlagsTo, checkShape, holdStdout, type JsonShape } from './core/json-shape.js';

/** The names of every noun, for hints. */
export function nounNames(): string[] {
  return NOUNS.map((n) => n.name);
}

/** Global options that take a value, so the noun scan skips their argument. */
const VALUE_OPTIONS = new Set(['--profile', '--site', '--timeout']);

/**
 * The noun `argv` invokes (`services` in `sitectl --profile x services list`, and in `sitectl help services`),
 * or undefined.
 */
export function nounOf(argv: readonly string[]): string | undefined {
  return commandPath(argv)[0];
}

/**
 * The noun and verb `argv` invokes (`['services', 'list']` for `sitectl --profile x services list --json`, and
 * for `sitectl help services list`); either may be undefined.
 */
export function commandPath(argv: readonly string[]): [string | undefined, string | undefined] {
  const positionals: string[] = [];
  for (let i = 0; i < argv.length && positionals.length < 3; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    positionals.push(a);
  }
  return positionals[0] === 'help' ? [positionals[1], positionals[2]] : [positionals[0], positionals[1]];
}

/**
 * Builds the root command for `argv`: global flags, help and version, every noun listed, and the invoked noun's
 * module loaded and registered (with `allNouns`, every noun's: the completion scripts need the whole tree).
 */
export async function createProgram(ctx: Context, argv: readonly string[] = [], opts: { allNouns?: boolean } = {}): Promise<Command> {
  const program = new Command('sitectl')
    .description('Back office for sites on the hosted booking platform, and a local emulator of it')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(completesWith(new Option('--profile <name>', 'use this profile (default: $SITECTL_PROFILE, the current profile, or local)'), { kind: 'lookup', command: 'profiles' }))
    .addOption(completesWith(new Option('--site <id|name>', "a site of the profile's account (default: the profile's, or $SITECTL_SITE_ID)"), { kind: 'lookup', command: 'sites' }))
    .option(
      '--timeout <seconds>',
      'most time one request attempt may take (default 30, or $SITECTL_TIMEOUT). A call with its retries and waits ' +
        'takes at most 120 s (4 attempts of a longer --timeout, or $SITECTL_CALL_BUDGET seconds); a Retry-After ' +
        "over 60 s, or over what is left of the call's budget, ends it at once",
    )
    .option('--allow-unknown-fields', 'send field names and enumeration values the entity schema does not know (--filter, --where, --sort, --file, --json)')
    .option('--debug', 'print the HTTP trace (secrets redacted) and stack traces on stderr')
    .option('--no-input', 'never prompt; fail instead when input would be needed')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    // A function: the program name (a PATH lookup) is worked out only when help is printed.
    .addHelpText('after', () => rootHelpFooter(ctx.bin));

  program.hook('preAction', (_program, action) => {
    const o = program.opts<{ profile?: string; site?: string; debug?: boolean; input?: boolean; timeout?: string; allowUnknownFields?: boolean }>();
    ctx.flags.profile = o.profile;
    if (o.site !== undefined && !o.site.trim()) throw new UserError('--site needs a site id or name');
    ctx.flags.site = o.site?.trim();
    ctx.flags.debug = Boolean(o.debug);
    ctx.flags.noInput = o.input === false;
    ctx.flags.allowUnknownFields = Boolean(o.allowUnknownFields);
    if (o.timeout !== undefined) {
      ctx.flags.timeoutSec = parseDecimal(o.timeout, '--timeout', { min: 0, max: 3600, unit: 'seconds' });
    }
    // Every verb: an empty or blank id, name or reference is bad input, refused before any request.
    checkCommandInput(action);
  });
  // `--jq` / `--template`: checked before the command sends anything; its JSON is held and shaped when it is done.
  program.hook('preAction', async (_program, action) => {
    const shape = shapeOf(action);
    if (!shape) return;
    await checkShape(shape);
    held.set(program, holdStdout(ctx.io, shape));
  });

  const [word, verb] = commandPath(argv);
  const wanted = nounNamed(NOUNS, word);
  for (const noun of NOUNS) {
    // Every noun is listed by its header (commands/nouns.ts); only the one invoked (by its name or an alias) is loaded.
    const cmd = program.command(noun.name).aliases([...noun.aliases]).description(noun.description);
    if (noun === wanted || opts.allNouns) await (await noun.load()).register(cmd, ctx, { verb, all: opts.allNouns, nouns: NOUNS });
  }
  addCompletion(program, ctx);
  addShapeFlags(program);
  applyToTree(program, ctx);
  return program;
}

/** The output held for `--jq` / `--template` of a program's run (program.ts parse writes it out). */
const held = new WeakMap<Command, { finish(): Promise<void> }>();

const SHAPE_FLAGS = { jq: '--jq', template: '--template' } as const;

/**
 * Adds `-q, --jq` and `-t, --template` to every command of the tree that prints JSON (has `--json`), as gh does.
 * Applied after registration, like the output settings, so each verb declares `--json` alone.
 */
function addShapeFlags(cmd: Command): void {
  if (cmd.options.some((o) => o.long === '--json')) addShapeFlagsTo(cmd);
  for (const sub of cmd.commands) addShapeFlags(sub);
}

/**
 * The shape `--jq` or `--template` asks of the command's JSON (undefined when neither is given); sets `--json` when
 * it was not.
 * @throws UserError (exit 2) for both at once, or with `--ndjson` / `--csv`
 */
function shapeOf(action: Command): JsonShape | undefined {
  const o = action.opts<{ jq?: string; template?: string; ndjson?: boolean; csv?: string | boolean; json?: string | boolean }>();
  if (o.jq === undefined && o.template === undefined) return undefined;
  if (o.jq !== undefined && o.template !== undefined) throw new UserError('choose one of --jq and --template');
  const flag = o.jq !== undefined ? SHAPE_FLAGS.jq : SHAPE_FLAGS.template;
  if (o.ndjson || (o.csv !== undefined && o.csv !== false)) throw new UserError(`${flag} shapes JSON: it goes with --json, not --ndjson or --csv`);
  if (o.json === undefined || o.json === false) action.setOptionValueWithSource('json', true, 'implied');
  return o.jq !== undefined ? { kind: 'jq', expression: o.jq } : { kind: 'template', text: o.template! };
}

const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/**
 * `sitectl completion bash|zsh|fish` (docs/architecture.md "Output and interaction"): prints a completion script generated from the whole
 * command tree, every noun loaded (src/commands/completion/scripts.ts writes the scripts). It lives here, not in
 * a noun module, because it needs the root program with every noun.
 */
function addCompletion(program: Command, ctx: Context): void {
  const install: Record<Shell, string> = {
    bash: `echo 'source <(sitectl completion bash)' >> ~/.bashrc`,
    zsh: `sitectl completion zsh > "\${fpath[1]}/_sitectl"   # or: source <(sitectl completion zsh) in ~/.zshrc`,
    fish: `sitectl completion fish > ~/.config/fish/completions/sitectl.fish`,
  };
  program
    .command('completion')
    .description('Print the shell completion script (bash, zsh or fish)')
    .addArgument(completesWith(new Argument('<shell>', SHELLS.join(', ')), { kind: 'words', words: SHELLS }))
    .addHelpText('after', `\nInstall:\n${SHELLS.map((s) => `  ${s}: ${install[s]}`).join('\n')}`)
    .action(async (shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) throw new UserError(`unknown shell '${shell}'`, `use one of ${SHELLS.join(', ')}`);
      const [{ completionScript, completionTree }, full] = await Promise.all([import('./commands/completion/scripts.js'), createProgram(ctx, [], { allNouns: true })]);
      // Named after the program (`sitectl`), and also after the name it was invoked as when that differs
      // (`./bin/sitectl.js` completes through its base name `sitectl.js`), when that is a plain command name.
      const invoked = ctx.bin.split(/[\\/]/).pop() ?? '';
      const plain = (n: string) => /^[A-Za-z0-9_.-]+$/.test(n);
      const base = invoked.replace(/\.js$/, '');
      const name = plain(base) ? base : 'sitectl';
      ctx.io.stdout.write(completionScript(shell as Shell, completionTree(full), name, plain(invoked) && invoked !== name ? [invoked] : []));
    });
}

/** Examples, environment and exit codes under the root help. */
function rootHelpFooter(bin: string): string {
  const examples = [
    'services list --where type=CLASS --sort name',
    'services get 4f1c --json',
    'services update --where hidden=true --set hidden=false --dry-run',
    'services delete --ids-file old-ids.txt --yes --json',
    'emulator status',
    'api POST /_api/bookings/v2/services/query -f query.paging.limit=5',
  ];
  return (
    `\nExamples:\n${examples.map((e) => `  ${bin} ${e}\n`).join('')}` +
    `  printf %s "$KEY" | ${bin} profile add prod --site-id ID --api-key-stdin --use\n` +
    `  source <(${bin} completion bash)\n` +
    `\nWithout a profile, commands run against the local emulator (started on first use).\n` +
    `Environment: SITECTL_PROFILE, SITECTL_BASE_URL, SITECTL_SITE_ID, SITECTL_API_KEY, SITECTL_TIMEOUT, SITECTL_CALL_BUDGET,\n` +
    `  SITECTL_WAIT_NOTICE, NO_COLOR, CI.\n` +
    `A wait of 3 s or more (SITECTL_WAIT_NOTICE seconds; 0: every wait) says so on stderr; Ctrl-C stops it.\n` +
    `Exit codes: 0 ok, 1 failure (or declined), 2 usage or bad input, 3 partial failure, 4 authentication, 130 interrupted.`
  );
}

let usageHintShown = false;

/** True once after Commander's error output carried its own hint (a "did you mean" suggestion). */
export function consumeUsageHint(): boolean {
  const shown = usageHintShown;
  usageHintShown = false;
  return shown;
}

/**
 * Commander's usage errors as one `error:` line; its "(Did you mean X?)" suggestion becomes the `hint:` line
 * (docs/architecture.md "Output and interaction": one line saying what happened, one saying how to fix it).
 */
function writeUsageError(cmd: Command, text: string, write: (s: string) => void): void {
  const m = /^(.*?)\n\(Did you mean (?:one of )?(.+)\?\)\s*$/s.exec(text);
  if (!m) {
    write(text);
    return;
  }
  // Commander suggests aliases too (`service, services`): each command is named once, by its name.
  const named = (word: string): string => cmd.commands.find((c) => c.aliases().includes(word))?.name() ?? word;
  const words = [...new Set(m[2]!.split(', ').map(named))];
  write(`${m[1]}\nhint: did you mean ${words.length > 1 ? `one of ${words.join(', ')}` : words[0]}?\n`);
  usageHintShown = true;
}

/**
 * exitOverride and output settings for every command. Applied after registration because `addCommand()` does
 * not copy the parent's settings the way `.command()` does.
 */
function applyToTree(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureHelp(HELP);
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
    outputError: (text, write) => writeUsageError(cmd, text, write),
    getOutHelpWidth: () => ctx.io.columns,
    getErrHelpWidth: () => ctx.io.columns,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  for (const sub of cmd.commands) applyToTree(sub, ctx);
}

/**
 * How help reads (docs/architecture.md "Output and interaction"), as gh's does: a verb is listed by its name and aliases (`list|ls`), not
 * with its `[options] <args>`, which its own help shows, so one long usage no longer stops Commander wrapping the
 * descriptions of the whole list (it wraps only when 40 columns are left); and an option's default is shown only
 * when it means something to a person, worded `(default 4)`: never Commander's `(default: [])`, `(default:
 * false)` or `(default: "4")`, and not twice when the description already says its default. Width: the terminal's,
 * 80 when piped (iostreams.ts).
 */
const HELP = {
  // A noun's and a verb's help list the program's own flags (--profile, --site, --timeout...) under "Global Options".
  showGlobalOptions: true,
  // A usage line longer than the help's width goes on under `Usage: `, broken between words, as the rest wraps.
  commandUsage(this: Help, cmd: Command): string {
    const usage = Help.prototype.commandUsage.call(this, cmd);
    const room = (this.helpWidth ?? 80) - 'Usage: '.length;
    if (usage.length <= room) return usage;
    const lines: string[] = [];
    for (const word of usage.split(' ')) {
      const last = lines.length - 1;
      if (last >= 0 && lines[last]!.length + 1 + word.length <= room) lines[last] += ` ${word}`;
      else lines.push(word);
    }
    return lines.join(`\n${' '.repeat('Usage: '.length)}`);
  },
  // A noun is listed by its name alone (its own help's usage line names its alias: `sitectl services|service`).
  subcommandTerm: (cmd: Command): string => (cmd.parent?.parent ? [cmd.name(), ...cmd.aliases()].join('|') : cmd.name()),
  optionDescription: (option: Option): string => {
    const extra: string[] = [];
    if (option.argChoices) extra.push(`one of ${option.argChoices.join(', ')}`);
    const value = option.defaultValueDescription ?? option.defaultValue;
    const meaningful = (typeof value === 'string' && value !== '') || typeof value === 'number';
    if (meaningful && !/\bdefault\b/i.test(option.description)) extra.push(`default ${String(value)}`);
    return extra.length ? `${option.description} (${extra.join('; ')})` : option.description;
  },
};

/**
 * Parses and runs `argv` (user arguments, without `node` and the script). No arguments prints the root help on
 * stdout. Throws CommanderError (usage, help, version) and whatever the command throws.
 */
export async function parse(program: Command, argv: readonly string[]): Promise<void> {
  if (argv.length === 0) {
    program.outputHelp();
    return;
  }
  // `help NOUN VERB`: Commander's help command takes one word; the verb's own help is `NOUN VERB --help`.
  const words = argv.filter((a) => !a.startsWith('-'));
  if (argv[0] === 'help' && words.length >= 3) {
    await program.parseAsync([...argv.slice(1), '--help'], { from: 'user' });
    return;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    // A run that failed after printing (a partly done bulk run's report) still has its JSON shaped; the error stands.
    await held.get(program)?.finish().catch(() => undefined);
    throw err;
  }
  await held.get(program)?.finish();
}
