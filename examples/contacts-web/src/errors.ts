import type { CombinedError } from 'urql';

/** What the page shows for a failed request: the API's own words, and whether the token is at fault. */
export interface Problem {
  message: string;
  /** 401: the token is wrong, unknown or revoked; 403: it may not do this. */
  status?: number;
}

/** The API puts its REST status and code in each GraphQL error's extensions. */
export function problemOf(error: CombinedError): Problem {
  const first = error.graphQLErrors[0];
  if (first) {
    const status = typeof first.extensions?.status === 'number' ? first.extensions.status : error.response?.status;
    return { message: first.message, status };
  }
  const status = (error.response as Response | undefined)?.status;
  if (error.networkError) return { message: `The API could not be reached (${error.networkError.message}).`, status };
  return { message: error.message, status };
}

export function describeProblem(problem: Problem): string {
  if (problem.status === 401) return `The API refused this token: ${problem.message}`;
  if (problem.status === 403) return `This token may not do that: ${problem.message}`;
  return problem.message;
}
