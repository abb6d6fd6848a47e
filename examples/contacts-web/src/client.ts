import { createClient as createSseClient } from 'graphql-sse';
import { retryExchange } from '@urql/exchange-retry';
import { cacheExchange, createClient, fetchExchange, subscriptionExchange, type Client } from 'urql';

/**
 * graphql-sse treats every non-2xx answer as a network failure: it retries it and drops the API's
 * words. A 4xx (a refused token, a missing scope, too many streams) will not change on retry, so
 * it is handed on as the GraphQL result the API sent, and the stream ends there.
 */
async function fetchForStreams(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status < 400 || response.status >= 500) return response;
  const result = await response.json().catch(() => ({ errors: [{ message: `The API answered ${response.status}`, extensions: { status: response.status } }] }));
  const stream = `event: next\ndata: ${JSON.stringify(result)}\n\nevent: complete\ndata:\n\n`;
  return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/**
 * One urql client per token. Queries and mutations are POSTs to /graphql on this origin (never
 * GET: a token-scoped answer has no business in a URL or a cache); subscriptions go over SSE with
 * graphql-sse's distinct-connections mode, which the API serves on the same path.
 */
export function apiClient(token: string): Client {
  const authorization = `Bearer ${token}`;
  const sse = createSseClient({
    url: new URL('/graphql', window.location.href).toString(),
    headers: () => ({ authorization }),
    fetchFn: fetchForStreams,
    // No retries here: the events strip reconnects itself, resuming after the last event it
    // received (`events(after:)`), which a retry of the same request could not do.
    retryAttempts: 0,
  });
  return createClient({
    url: '/graphql',
    preferGetMethod: false,
    fetchOptions: () => ({ headers: { authorization } }),
    exchanges: [
      cacheExchange,
      // A query that could not reach the API (a restart, a connection the browser kept from
      // before it) is asked again a few times. Never a mutation: it may have been applied.
      retryExchange({ initialDelayMs: 300, maxDelayMs: 3_000, maxNumberAttempts: 4, retryIf: (error, operation) => Boolean(error.networkError) && operation.kind === 'query' }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
