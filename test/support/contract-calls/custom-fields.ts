import type { CallTable } from './seed.js';

export const customFieldCalls: CallTable = {};
