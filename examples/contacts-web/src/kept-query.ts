import { useRef } from 'react';
import { useQuery, type AnyVariables, type UseQueryArgs, type UseQueryResponse } from 'urql';

/**
 * useQuery, except that a re-read that fails (the API restarting, the network gone) keeps showing
 * what the same query read before, with the error beside it, instead of an empty page. Views
 * re-read themselves when an event names what they show: rows that vanished could match no event.
 */
export function useKeptQuery<Data, Variables extends AnyVariables>(args: UseQueryArgs<Variables, Data>): UseQueryResponse<Data, Variables> {
  const [result, reexecute] = useQuery<Data, Variables>(args);
  const key = JSON.stringify(args.variables ?? {});
  const kept = useRef<{ key: string; data: Data } | null>(null);
  if (result.data !== undefined) kept.current = { key, data: result.data };
  const data = result.data ?? (kept.current?.key === key ? kept.current.data : undefined);
  return [{ ...result, data }, reexecute];
}
