/**
 * A contact's avatar. Pictures on other hosts are not loaded: an avatar URL comes from a channel
 * or from whoever wrote the contact, and fetching it would tell that host who is looking at the
 * inbox and when (the page's policy allows images from this origin only). Those contacts get
 * their initials, in a colour of their own.
 */
const sameOrigin = (url: string): boolean => {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('') || '?';

/** One of eight hues, the same for the same contact. */
const hueOf = (key: string) => [...key].reduce((sum, c) => (sum * 31 + c.charCodeAt(0)) >>> 0, 7) % 8;

export function Avatar({ name, url, id, size = 'small' }: { name: string; url: string | null | undefined; id: string; size?: 'small' | 'large' }) {
  if (url && sameOrigin(url)) return <img className={`avatar avatar-${size}`} src={url} alt="" />;
  return (
    <span className={`avatar avatar-${size} hue-${hueOf(id)}`} aria-hidden="true" title={url ? `Picture at ${url} (not loaded)` : undefined}>
      {initialsOf(name)}
    </span>
  );
}
