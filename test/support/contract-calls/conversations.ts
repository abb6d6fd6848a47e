import type { CallTable } from './seed.js';

export const conversationCalls: CallTable = {};
