import type { CallTable } from './seed.js';

export const contactSearchCalls: CallTable = {};
