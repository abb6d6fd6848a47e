/**
 * Page parameters that must be refused (422, never clamped) on every paginated REST list, with the
 * issue each gets. Shared by the dynamic-image and error-log tests.
 */
export const badPageParameters: { query: string; message: string; path: string[] }[] = [
  { query: 'page=0', message: 'page must be at least 1', path: ['query', 'page'] },
  { query: 'page=-1', message: 'page must be a whole number', path: ['query', 'page'] },
  { query: 'page=1.5', message: 'page must be a whole number', path: ['query', 'page'] },
  { query: 'page=abc', message: 'page must be a whole number', path: ['query', 'page'] },
  { query: 'page=', message: 'page must be a whole number', path: ['query', 'page'] },
  { query: 'page=1e3', message: 'page must be a whole number', path: ['query', 'page'] },
  { query: 'page=9007199254740992', message: 'page must be at most 9007199254740991', path: ['query', 'page'] },
  { query: 'page=100000000000000000000000', message: 'page must be at most 9007199254740991', path: ['query', 'page'] },
  { query: 'perPage=0', message: 'perPage must be at least 1', path: ['query', 'perPage'] },
  { query: 'perPage=51', message: 'perPage must be at most 50', path: ['query', 'perPage'] },
  { query: 'perPage=1.5', message: 'perPage must be a whole number', path: ['query', 'perPage'] },
  { query: 'perPage=abc', message: 'perPage must be a whole number', path: ['query', 'perPage'] },
  { query: 'perPage=%2B5', message: 'perPage must be a whole number', path: ['query', 'perPage'] },
  { query: 'page=1&page=2', message: 'Invalid input: expected string, received array', path: ['query', 'page'] },
];
