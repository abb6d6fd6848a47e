import { describe, expect, it } from 'vitest';
import { AppError, errorCatalogue, notFound, type DefinedCode, type ErrorCode } from '../src/errors/catalogue.js';

/**
 * One way to say each error: a code of the contract's table always carries the table's default
 * message, whoever raises it; what varies goes in `data`. AppError's type refuses a message for
 * those codes (`npm run typecheck` fails on the `@ts-expect-error` lines below if that ever stops
 * being true), and an untyped caller gets the default anyway. Only the undefined, HTTP-level codes
 * may word their message. (The bodies themselves are pinned through the app by the REST, GraphQL
 * and platform tests.)
 */
const definedCodes = (Object.keys(errorCatalogue) as ErrorCode[]).filter((c): c is DefinedCode => errorCatalogue[c].defined);

describe('AppError: the contract codes carry the default message', () => {
  it('the type refuses a custom message for a contract code', () => {
    const wouldNotCompile = () => [
      // @ts-expect-error notFound says "Resource not found"; the record goes in data.resource
      new AppError('notFound', { message: 'Contact not found' }),
      // @ts-expect-error validation says "Validation error"; the field goes in data.field
      new AppError('validation', { message: 'A contact with this email already exists', data: { field: 'email' } }),
      // @ts-expect-error invalidRequestData says "Input validation failed"; details go in data.issues
      new AppError('invalidRequestData', { message: 'Syntax Error: Expected Name' }),
    ];
    expect(wouldNotCompile).toBeTypeOf('function');
  });

  it('an untyped caller passing a message still gets the default, for every contract code', () => {
    const Untyped = AppError as unknown as new (code: string, options: { message: string; data?: unknown }) => AppError;
    for (const code of definedCodes) {
      expect(new Untyped(code, { message: 'something else', data: { x: 1 } }).toEnvelope(), code).toEqual({
        defined: true,
        code,
        status: errorCatalogue[code].status,
        message: errorCatalogue[code].message,
        data: { x: 1 },
      });
    }
  });

  it('notFound names the record in data.resource', () => {
    expect(notFound('Contact').toEnvelope()).toEqual({ defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'Contact' } });
    expect(notFound().toEnvelope()).toEqual({ defined: true, code: 'notFound', status: 404, message: 'Resource not found' });
  });

  it('an undefined (HTTP-level) code may word its message', () => {
    expect(new AppError('methodNotAllowed', { message: 'PUT is not allowed here; use GET, POST' }).toEnvelope()).toEqual({
      defined: false,
      code: 'methodNotAllowed',
      status: 405,
      message: 'PUT is not allowed here; use GET, POST',
    });
    expect(new AppError('malformedJson').message).toBe(errorCatalogue.malformedJson.message);
  });
});
