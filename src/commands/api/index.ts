/** `sitectl api METHOD PATH`: raw passthrough to any endpoint (docs/architecture.md "Output and interaction"; gh's `gh api`). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as request from './request.js';

export function register(cmd: Command, ctx: Context): void {
  request.register(cmd, ctx);
}
