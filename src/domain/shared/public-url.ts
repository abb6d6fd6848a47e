import ipaddr from 'ipaddr.js';

/**
 * The guard against server-side request forgery for URLs users register (webhook endpoints, later
 * image URLs the service fetches): pure, no I/O. `checkPublicUrl` judges a URL when it is
 * registered (its message is the 422 at the field); `isPublicAddress` judges each address a host
 * name resolves to when the request is sent (src/channels/outbound-http.ts), since a name that was
 * public at registration may resolve to anything later.
 */

export interface PublicUrlOptions {
  /** At most this many characters (of the value as given). */
  maxLength: number;
  /**
   * `host:port` values (compared exactly with `url.host`, e.g. `127.0.0.1:43219`) accepted whatever
   * they are: the local receivers of tests and development. Empty in production.
   */
  allowedHosts: readonly string[];
}

export type PublicUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Whether an IP address (as `dns.lookup` gives it, or an IP literal; IPv6 with or without brackets)
 * is public unicast. ipaddr.js's `range()` must be `unicast`: loopback, private, linkLocal (so
 * 169.254.169.254, the cloud metadata address), uniqueLocal, carrierGradeNat, reserved, multicast,
 * unspecified (0.0.0.0/8 and ::), broadcast and every other special range are refused. An
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it maps. IPv6 must
 * also be in 2000::/3, the only block allocated for global unicast: ipaddr.js calls the rest of
 * ::/8 `unicast`, including the deprecated IPv4-compatible `::7f00:1` (`[::127.0.0.1]`). Anything
 * that does not parse as an address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).range() === 'ipv4Mapped') parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') {
    const v4 = parsed as ipaddr.IPv4;
    return v4.range() === 'unicast' && v4.octets[0] !== 0;
  }
  const v6 = parsed as ipaddr.IPv6;
  return v6.range() === 'unicast' && (v6.parts[0] & 0xe000) === 0x2000;
}

/** After WHATWG parsing, an http(s) URL's IPv4 host is always four dotted decimals (`127.1` and `0x7f000001` become `127.0.0.1`). */
const ipv4Literal = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * Whether `value` may be registered as a URL the service sends requests to (`url` names the field
 * in the messages):
 * - at most `maxLength` characters, an absolute URL, `http:` or `https:`;
 * - no user name or password (`user:pass@host`);
 * - a host listed in `allowedHosts` (`host:port`, the scheme's port where the URL has none) is
 *   accepted whatever it is;
 * - an IP literal in any spelling (WHATWG parsing has normalised `127.1`, `2130706433`,
 *   `0x7f.0.0.1`, `0177.0.0.1` to `127.0.0.1`, and `[::ffff:127.0.0.1]` to `[::ffff:7f00:1]`) must
 *   be a public address (`isPublicAddress`);
 * - a host name must not be `localhost` or end in `.localhost`, and must have a dot (`metadata`,
 *   `intranet` are names only a local resolver answers); a trailing dot is ignored for both rules.
 * A host name that passes may still resolve to a private address: the sender checks the addresses
 * it resolves to (src/channels/outbound-http.ts).
 */
/** Is the URL's `host:port` listed? Its port is the scheme's (80, 443) where the URL leaves it out. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.length === 0) return false;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowedHosts.includes(`${url.hostname}:${port}`);
}

export function checkPublicUrl(value: string, options: PublicUrlOptions): PublicUrlCheck {
  if (value.length > options.maxLength) return { ok: false, message: `url must be at most ${options.maxLength} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: 'url must be an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'url must be http or https' };
  if (url.username !== '' || url.password !== '') return { ok: false, message: 'url must not carry a user name or password' };
  if (isAllowedHost(url, options.allowedHosts)) return { ok: true, url };

  const host = url.hostname;
  if (host.startsWith('[') || ipv4Literal.test(host)) {
    return isPublicAddress(host) ? { ok: true, url } : { ok: false, message: `url's host ${host} is not a public address` };
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return { ok: false, message: `url's host ${host} is a local name, not a public host` };
  if (!name.includes('.')) return { ok: false, message: `url's host ${host} is not a public host name (it has no dot)` };
  return { ok: true, url };
}
