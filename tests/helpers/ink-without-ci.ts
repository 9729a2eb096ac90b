/**
 * Import first in a test that reads Ink's frames: Ink reads CI once, when it loads, and in CI draws nothing until
 * unmount (only the final frame). Evaluated before the test's other imports (ES modules run in import order), it
 * hides CI from Ink and gives it back after the file's tests.
 */
import { afterAll } from 'vitest';

const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

afterAll(() => {
  for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
});
