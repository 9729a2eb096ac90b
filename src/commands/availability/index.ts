/**
 * `sitectl availability`: when services can be booked (spec 000 section 7 "Availability"; issue 6 section 3).
 * `availability SERVICE` lists slots (the default verb, `slots`); `schedule ID` shows a course's places;
 * `multislot` finds back-to-back slots for several services.
 */
import '../../startup.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import * as multislot from './multislot.js';
import * as schedule from './schedule.js';
import * as slots from './slots.js';

export function register(program: Command, ctx: Context): void {
  const availability = program.command('availability').alias('avail').description('Open slots of services, course places, back-to-back slots');
  for (const verb of [slots, schedule, multislot]) verb.register(availability, ctx);
}
