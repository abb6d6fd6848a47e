import { useState, type FormEvent } from 'react';

/** The token field: what it is for, where it is kept, and a way to forget it. */
export function TokenForm({ token, onChange }: { token: string; onChange: (token: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim() !== '') onChange(value.trim());
    setValue('');
  };
  return (
    <form className="token-form" onSubmit={submit} aria-describedby="token-help">
      <label>
        API token
        <input
          type="password"
          name="token"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={token ? 'A token is in use: paste another to switch' : 'mdev_…'}
        />
      </label>
      <button type="submit">Use token</button>
      {token ? (
        <button type="button" onClick={() => onChange('')}>
          Forget token
        </button>
      ) : null}
      <p id="token-help" className="muted">
        Kept in this tab's sessionStorage (gone when the tab closes) and sent only to this server, as <code>Authorization: Bearer</code>. <code>npm start</code> prints
        the demo workspace's token.
      </p>
    </form>
  );
}
