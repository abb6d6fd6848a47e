import { createClient as createSseClient } from 'graphql-sse';
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
    // A dropped connection (a restart, a network change) is retried a few times; the events
    // strip says when it gives up.
    retryAttempts: 5,
  });
  return createClient({
    url: '/graphql',
    preferGetMethod: false,
    fetchOptions: () => ({ headers: { authorization } }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
