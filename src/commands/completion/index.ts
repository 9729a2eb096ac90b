/**
 * `sitectl completion bash|zsh|fish`: prints the shell completion script on stdout (issue 5 section 6). The
 * script is generated from the full command tree, so it lists every noun, verb, alias and flag of this version.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UserError } from '../../core/errors.js';
import { completionScript, completionTree, SHELLS, type Shell } from './scripts.js';

const INSTALL: Record<Shell, (bin: string) => string> = {
  bash: (bin) => `echo 'source <(${bin} completion bash)' >> ~/.bashrc`,
  zsh: (bin) => `${bin} completion zsh > "\${fpath[1]}/_${bin}"   # or: source <(${bin} completion zsh) in ~/.zshrc`,
  fish: (bin) => `${bin} completion fish > ~/.config/fish/completions/${bin}.fish`,
};

export function register(program: Command, ctx: Context): void {
  program
    .command('completion')
    .description('Print the shell completion script (bash, zsh or fish)')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText('after', `\nInstall:\n${SHELLS.map((s) => `  ${s}: ${INSTALL[s]('sitectl')}`).join('\n')}`)
    .action(async (shell: string) => {
      await run({ shell }, ctx);
    });
}

/**
 * Prints the script for `opts.shell`, named after the program as the user runs it (its base name).
 * @throws UserError (exit 2) for an unknown shell
 */
export async function run(opts: { shell: string }, ctx: Context): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(opts.shell)) {
    throw new UserError(`unknown shell '${opts.shell}'`, `use one of ${SHELLS.join(', ')}`);
  }
  const { createProgram } = await import('../../program.js');
  const program = await createProgram(ctx, [], { allNouns: true });
  const bin = (ctx.bin.split(/[\\/]/).pop() ?? 'sitectl').replace(/\.js$/, '') || 'sitectl';
  ctx.io.stdout.write(completionScript(opts.shell as Shell, completionTree(program), /^[A-Za-z0-9_.-]+$/.test(bin) ? bin : 'sitectl'));
}
