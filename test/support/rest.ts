import { expect } from 'vitest';
import type { Config } from '../../src/config/config.js';
import type { Issue } from '../../src/errors/validation.js';
import { envelopes, forbidden } from './endpoints.js';

/**
 * Whole-body expectations for the REST tests: the error envelopes (GraphQL tests pass the same ones
 * to fieldError, which moves all but the message into `extensions`) and matchers for values the
 * server makes.
 */

/** A timestamp the server produced itself (ISO 8601 UTC with milliseconds). */
export const isoNow = () => expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

export const digits = () => expect.stringMatching(/^\d+$/);

/**
 * A dynamic image's `imageUrl`: its public link under the app's PUBLIC_BASE_URL (by default
 * http://localhost:<PORT>), computed from the config the test app was built with.
 */
export const imageLink = (config: Pick<Config, 'PUBLIC_BASE_URL' | 'PORT'>, id: number | string) =>
  `${config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`}/dynamic-images?dynamicImageId=${id}`;

export const invalidRequestData = (issues: Issue[]) => ({
  defined: true,
  code: 'invalidRequestData',
  status: 422,
  message: 'Input validation failed',
  data: { issues },
});

/** 404 notFound: the contract's default message; `data.resource` names what was looked for. */
export const notFound = (resource: string) => ({ ...envelopes.notFound, data: { resource } });

/** 403 FORBIDDEN: the contract's default message; `data.reason` names the rule (see src/domain/auth/access.ts). */
export { forbidden };

/** 400 malformedJson (not in the contract's table: defined false); `data.reason` is the parser's message. */
export const malformedJson = () => ({
  defined: false,
  code: 'malformedJson',
  status: 400,
  message: 'The request body is not valid JSON',
  data: { reason: expect.any(String) },
});

/** 422 validation: the contract's default message; what failed is in `data`. */
export const validationError = (data: unknown) => ({ defined: true, code: 'validation', status: 422, message: 'Validation error', data });
