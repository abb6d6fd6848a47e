import type { CallTable } from './seed.js';

export const contactCalls: CallTable = {};
