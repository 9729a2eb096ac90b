/** `sitectl api METHOD PATH`: raw passthrough to any endpoint (issue 2 section 4; gh's `gh api`). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as request from './request.js';

export function register(program: Command, ctx: Context): void {
  request.register(program, ctx);
}
