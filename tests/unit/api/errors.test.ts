import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ApplicationError,
  fromResponse,
  NetworkError,
  SystemError,
  toUpperSnake,
  ValidationError,
} from '../../../src/api/errors.js';
import { API_KEY, harness, on } from './helpers.js';

const RID = { 'x-wix-request-id': 'req-42' };

describe('fromResponse (docs/wire.md §4)', () => {
  it('rule 1: validation error lists fields sorted by name', () => {
    const body = JSON.stringify({
      message: 'bad',
      details: {
        validationError: {
          fieldViolations: [
            { field: 'service.name', description: 'must not be empty', violatedRule: 'REQUIRED_FIELD' },
            { field: 'service.defaultCapacity', description: 'must be at least 1', ruleName: 'MIN', data: { min: 1 } },
          ],
        },
      },
    });
    const err = fromResponse(400, 'Bad Request', RID, body);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe(
      'INVALID_ARGUMENT: "service.defaultCapacity" must be at least 1, "service.name" must not be empty',
    );
    const v = err as ValidationError;
    expect(v.code).toBe('INVALID_ARGUMENT');
    expect(v.status).toBe(400);
    expect(v.requestId).toBe('req-42');
    expect(v.fieldViolations).toEqual([
      { field: 'service.name', description: 'must not be empty', violatedRule: 'REQUIRED_FIELD' },
      { field: 'service.defaultCapacity', description: 'must be at least 1', ruleName: 'MIN', data: { min: 1 } },
    ]);
    expect(v.body).toBe(body);
  });

  it('rule 2: application error is "<message>: <description>" with code and data', () => {
    const err = fromResponse(
      400,
      'Bad Request',
      RID,
      JSON.stringify({
        message: 'Slug is taken',
        details: { applicationError: { code: 'SLUG_ALREADY_EXISTS', description: 'pick another', data: { slug: 'yoga' } } },
      }),
    );
    expect(err).toBeInstanceOf(ApplicationError);
    const a = err as ApplicationError;
    expect(a.message).toBe('Slug is taken: pick another');
    expect(a.code).toBe('SLUG_ALREADY_EXISTS');
    expect(a.description).toBe('pick another');
    expect(a.data).toEqual({ slug: 'yoga' });
    expect(a.status).toBe(400);
    expect(a.requestId).toBe('req-42');
  });

  it('rule 2: just the message when description equals it or is empty', () => {
    const same = fromResponse(
      428,
      '',
      RID,
      JSON.stringify({ message: 'Too late', details: { applicationError: { code: 'X', description: 'Too late' } } }),
    );
    expect(same.message).toBe('Too late');
    const empty = fromResponse(
      428,
      '',
      RID,
      JSON.stringify({ message: 'Too late', details: { applicationError: { code: 'X', description: '' } } }),
    );
    expect(empty.message).toBe('Too late');
  });

  it('rule 3: other 4xx -> application error coded by status text', () => {
    const notFound = fromResponse(404, 'Not Found', RID, JSON.stringify({ message: 'service abc not found' }));
    expect(notFound).toBeInstanceOf(ApplicationError);
    expect((notFound as ApplicationError).code).toBe('NOT_FOUND');
    expect(notFound.message).toBe('service abc not found');

    const conflict = fromResponse(409, '', RID, JSON.stringify({ message: 'entity has already changed since the requested revision', details: {} }));
    expect((conflict as ApplicationError).code).toBe('CONFLICT');
    expect(conflict.message).toBe('entity has already changed since the requested revision');
    expect(conflict.status).toBe(409);

    const throttled = fromResponse(429, 'Too Many Requests', RID, '');
    expect((throttled as ApplicationError).code).toBe('TOO_MANY_REQUESTS');
    expect(throttled.message).toBe('Too Many Requests');
    expect(throttled.requestId).toBe('req-42');
  });

  it('rule 4: 5xx and unparseable bodies -> system error with the request id', () => {
    const err = fromResponse(503, 'Service Unavailable', RID, '');
    expect(err).toBeInstanceOf(SystemError);
    expect(err.message).toBe('System error occurred, request-id: req-42');
    expect(err.status).toBe(503);
    const html = fromResponse(400, 'Bad Request', RID, '<html>oops</html>');
    expect(html).toBeInstanceOf(SystemError);
    expect(html.message).toBe('System error occurred, request-id: req-42');
    const noId = fromResponse(500, '', {}, '');
    expect(noId.message).toBe('System error occurred, request-id: none');
    expect(noId.requestId).toBeUndefined();
  });

  it('network error names the raw error', () => {
    const err = new NetworkError('ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9', new Error('x'));
    expect(err).toBeInstanceOf(SystemError);
    expect(err.message).toBe('System error occurred, request-id: none (ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9)');
    expect(err.status).toBe(0);
  });

  it('upper snake case of status texts', () => {
    expect(toUpperSnake('Not Found')).toBe('NOT_FOUND');
    expect(toUpperSnake('Unprocessable Entity')).toBe('UNPROCESSABLE_ENTITY');
    expect(toUpperSnake("I'm a Teapot")).toBe('I_M_A_TEAPOT');
    expect(toUpperSnake('Precondition Required')).toBe('PRECONDITION_REQUIRED');
  });
});

describe('errors through the client', () => {
  it('carries status and request id, calls onError with the thrown error, and never leaks the key', async () => {
    const h = harness();
    on(h, 'POST', '/_api/bookings/v2/services', () => ({
      status: 400,
      data: {
        message: `key ${API_KEY} rejected`,
        details: { validationError: { fieldViolations: [{ field: 'service.name', description: `bad ${API_KEY}` }] } },
      },
      headers: { 'x-wix-request-id': 'rid-7' },
    }));
    const err = await h.api.request({ method: 'POST', path: '/_api/bookings/v2/services', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.message).toBe('INVALID_ARGUMENT: "service.name" bad [REDACTED]');
    expect(v.requestId).toBe('rid-7');
    expect(v.status).toBe(400);
    expect(h.errors).toEqual([err]);
    expect(v.body).not.toContain(API_KEY);
    expect(JSON.stringify(v.details)).not.toContain(API_KEY);
    expect(JSON.stringify(h.debug)).not.toContain(API_KEY);
    expect(h.delays).toEqual([]);
  });

  it('a 201 or an empty 200 is a system error (success is 200 with JSON)', async () => {
    const h = harness();
    on(h, 'GET', '/a', () => ({ status: 201, data: {}, headers: { 'x-wix-request-id': 'r1' } }));
    on(h, 'GET', '/b', () => ({ status: 200, data: '', headers: { 'x-wix-request-id': 'r2' } }));
    const a = await h.api.request({ method: 'GET', path: '/a' }).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(SystemError);
    expect((a as SystemError).message).toBe('System error occurred, request-id: r1');
    const b = await h.api.request({ method: 'GET', path: '/b' }).catch((e: unknown) => e);
    expect((b as SystemError).message).toBe('System error occurred, request-id: r2 (empty reply)');
  });
});
