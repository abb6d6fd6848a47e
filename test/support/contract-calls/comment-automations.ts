import type { CallTable } from './seed.js';

export const commentAutomationCalls: CallTable = {};
