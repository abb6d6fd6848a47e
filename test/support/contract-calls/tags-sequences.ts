import type { CallTable } from './seed.js';

export const tagSequenceCalls: CallTable = {};
