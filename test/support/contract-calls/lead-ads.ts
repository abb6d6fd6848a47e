import type { CallTable } from './seed.js';

export const leadAdCalls: CallTable = {};
