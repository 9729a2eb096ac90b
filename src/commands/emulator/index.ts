/**
 * `sitectl emulator start|stop|status|reset|clock|sites|mail|pay`: the local, persistent emulator of the platform
 * (design.md "The emulator"; issue 2 section 3).
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as clock from './clock.js';
import * as mail from './mail.js';
import * as pay from './pay.js';
import * as reset from './reset.js';
import * as sites from './sites.js';
import * as start from './start.js';
import * as status from './status.js';
import * as stop from './stop.js';

export function register(program: Command, ctx: Context): void {
  const emulator = program
    .command('emulator')
    .description('Run the local emulator of the platform')
    .addHelpText('after', '\nData lives in --data-dir (default $SITECTL_DATA_DIR/emulator, else ~/.local/share/sitectl/emulator).');
  for (const verb of [start, stop, status, reset, clock, sites, mail, pay]) verb.register(emulator, ctx);
}
