import type { CallTable } from './seed.js';

export const dynamicImageCalls: CallTable = {};
