/**
 * Typed errors thrown by emulator handlers. The server turns each into the platform's real error envelope
 * (docs/wire.md §4); anything else thrown becomes a 500 with an
 * empty body, as the real gateway sends system errors.
 */

export interface FieldViolation {
  field: string;
  description: string;
  violatedRule: string;
  ruleName?: string;
  data?: Record<string, unknown>;
}

/** Base class: an HTTP status plus the JSON body sent with it. */
export abstract class EmulatorError extends Error {
  abstract readonly status: number;
  abstract body(): unknown;
}

/**
 * 400 with `details.validationError.fieldViolations`. The message follows the platform: `INVALID_ARGUMENT`
 * followed by each field and its description.
 */
export class ValidationFailure extends EmulatorError {
  readonly status = 400;
  constructor(readonly fieldViolations: FieldViolation[]) {
    super('INVALID_ARGUMENT: ' + fieldViolations.map((v) => `"${v.field}" ${v.description}`).join(', '));
  }
  /** One violation, the common case. `violatedRule` defaults to `INVALID`. */
  static field(field: string, description: string, violatedRule = 'INVALID', data?: Record<string, unknown>) {
    return new ValidationFailure([{ field, description, violatedRule, ...(data ? { data } : {}) }]);
  }
  body() {
    return { message: this.message, details: { validationError: { fieldViolations: this.fieldViolations } } };
  }
}

/** A 4xx with `details.applicationError` `{code, description, data}`. */
export class ApplicationFailure extends EmulatorError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly data: Record<string, unknown> = {},
    message?: string,
  ) {
    super(message ?? description);
  }
  body() {
    return {
      message: this.message,
      details: { applicationError: { code: this.code, description: this.description, data: this.data } },
    };
  }
}

/** The platform's wording for a stale revision (docs/wire.md §9). */
export const REVISION_MISMATCH_MESSAGE = 'entity has already changed since the requested revision';

/** A route that does not exist: 404 whose code the client maps from the status text. */
export function routeNotFound(method: string, path: string): ApplicationFailure {
  return new ApplicationFailure(404, 'NOT_FOUND', `no route for ${method} ${path}`);
}

/**
 * Item-level error of a bulk reply (`itemMetadata.error`): the same code/description/data an equivalent
 * single call would carry. Validation failures become code `INVALID_ARGUMENT` with the violations in data.
 * @throws the error itself when it is not an emulator error (a bug)
 */
export function toItemError(err: unknown): { code: string; description: string; data: Record<string, unknown> } {
  if (err instanceof ApplicationFailure) return { code: err.code, description: err.description, data: err.data };
  if (err instanceof ValidationFailure) {
    return { code: 'INVALID_ARGUMENT', description: err.message, data: { fieldViolations: err.fieldViolations } };
  }
  throw err;
}
