import { expect } from 'vitest';
import type { Issue } from '../../src/errors/validation.js';

/** Whole-body expectations for the REST tests. */

/** A timestamp the server produced itself (ISO 8601 UTC with milliseconds). */
export const isoNow = () => expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

export const digits = () => expect.stringMatching(/^\d+$/);

export const invalidRequestData = (issues: Issue[]) => ({
  defined: true,
  code: 'invalidRequestData',
  status: 422,
  message: 'Input validation failed',
  data: { issues },
});

export const notFound = (message: string) => ({ defined: true, code: 'notFound', status: 404, message });

/** 403 FORBIDDEN: the contract's default message; `data.reason` names the rule (see src/domain/auth/access.ts). */
export const forbidden = (data: Record<string, unknown>) => ({
  defined: true,
  code: 'FORBIDDEN',
  status: 403,
  message: 'You do not have permission to perform this action',
  data,
});

export const validationError = (message: string, data: unknown) => ({ defined: true, code: 'validation', status: 422, message, data });
