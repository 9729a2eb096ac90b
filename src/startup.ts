/**
 * The modules the commands need, imported for their effect by cli.ts and by the modules the bundle loads with a
 * dynamic import on a command's path (the nouns, the bulk verbs' engine), so the bundler keeps them in one chunk
 * instead of a dozen small ones: on Node 20 each file loaded costs a resolve, a read, a compile and a link
 * (`services list --json` start-up, issue 5 section 1). Nothing here loads zod or node:http, and nothing here
 * runs code of its own. (context-deps.ts does not import it: that would tie src/context.ts to the command
 * modules in a circle, and measured one file more on the `services list` path.)
 */
import './api/family.js';
import './api/paging.js';
import './api/paths.js';
import './api/query.js';
import './api/schemas/introspect.js';
import './core/errors.js';
import './core/filters.js';
import './core/input.js';
import './core/invocation.js';
import './core/log.js';
import './core/output.js';
import './core/text.js';
import './commands/shared/bulk-flags.js';
import './commands/shared/fields.js';
import './commands/shared/ids.js';
import './commands/shared/verbs.js';
