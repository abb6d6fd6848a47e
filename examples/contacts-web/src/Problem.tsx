import type { CombinedError } from 'urql';
import { describeProblem, problemOf } from './errors';

/** A failed request, as the API worded it; 401 and 403 say what to do about the token. */
export function Problem({ error }: { error: CombinedError }) {
  const problem = problemOf(error);
  return (
    <div className={`problem status-${problem.status ?? 'none'}`} role="alert">
      <p>{describeProblem(problem)}</p>
      {problem.status === 401 ? <p>
          Enter a valid token above: <code>npm start</code> prints the demo workspace's token.
        </p> : null}
      {problem.status === 403 ? <p>Use a token with the scope named above, or a full-access token.</p> : null}
    </div>
  );
}
