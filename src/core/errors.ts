/**
 * Error classes of the CLI layer and their exit codes (docs/architecture.md "Output and interaction").
 * `main` maps each class to an exit code in one place; commands only throw.
 *
 * Exit codes: 0 ok, 1 failure, 2 usage or bad input, 3 partial failure of a bulk action,
 * 4 authentication required, 130 interrupted.
 */

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  PartialFailure: 3,
  AuthRequired: 4,
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A problem the user can fix: bad input, a missing flag, an unknown id. One line, plus an optional hint. */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  /** @param message one line saying what happened. @param hint one line saying how to fix it. */
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: ExitCode = ExitCode.Usage,
  ) {
    super(message);
  }
}

/** An id or name given names nothing (exit 1): `no booking has an id starting with '7c1e'`. */
export class NotFoundError extends UserError {
  override readonly name = 'NotFoundError';
  constructor(message: string, hint?: string) {
    super(message, hint, ExitCode.Failure);
  }
}

/** Authentication is missing or was refused (exit 4). */
export class AuthError extends UserError {
  override readonly name = 'AuthError';
  constructor(message: string, hint?: string) {
    super(message, hint, ExitCode.AuthRequired);
  }
}

/** The user interrupted (Ctrl-C) or declined a prompt (exit 130 for an interrupt, 1 for a declined prompt). */
export class CancelError extends Error {
  override readonly name = 'CancelError';
  constructor(
    message = 'Interrupted',
    readonly exitCode: ExitCode = ExitCode.Interrupted,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * What a confirm prompt left with `n` or Esc says, in the CLI and the interactive views alike (docs/architecture.md "The confirmation rule").
 */
export const CANCELED_TEXT = 'canceled: nothing was changed';

/**
 * The user answered no (or Esc) at a confirm prompt (exit 1). Not an error of anyone's: main prints the message
 * alone, without `error:` ({@link CANCELED_TEXT}).
 */
export class DeclinedError extends Error {
  override readonly name = 'DeclinedError';
  readonly exitCode = ExitCode.Failure;
  constructor(message = CANCELED_TEXT) {
    super(message);
  }
}

/** A bulk action finished with some items failed (exit 3). The report has already been printed. */
export class PartialFailureError extends Error {
  override readonly name = 'PartialFailureError';
  readonly exitCode = ExitCode.PartialFailure;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * A result told by the exit code alone (`services diff --exit-code`: 1 when there is a difference, as `git
 * diff --exit-code`). Not an error: main prints nothing for it.
 */
export class ExitStatus extends Error {
  override readonly name = 'ExitStatus';
  constructor(readonly exitCode: ExitCode) {
    super(`exit status ${exitCode}`);
  }
}

/**
 * `--json help` (or `--csv help`): the command stops before sending anything and main prints `fields`, the names
 * the flag takes, one per line on stdout (exit 0), so a script author learns them without reading every field.
 */
export class FieldsAsked extends Error {
  override readonly name = 'FieldsAsked';
  readonly exitCode = ExitCode.Ok;
  constructor(
    readonly flag: string,
    readonly fields: readonly string[],
  ) {
    super(`${flag} takes: ${fields.join(', ')}`);
  }
}

/** Something that should never happen: shown as a bug report with the stack under --debug (exit 1). */
export class BugError extends Error {
  override readonly name = 'BugError';
  readonly exitCode = ExitCode.Failure;
}
