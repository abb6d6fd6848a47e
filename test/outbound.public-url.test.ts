import { describe, expect, it } from 'vitest';
import { checkPublicUrl, isPublicAddress } from '../src/domain/shared/public-url.js';

const options = { maxLength: 1000, allowedHosts: [] as string[] };
const message = (value: string, opts = options) => {
  const result = checkPublicUrl(value, opts);
  return result.ok ? null : result.message;
};

describe('checkPublicUrl', () => {
  it('accepts public host names and public IP literals, and gives the parsed URL', () => {
    for (const value of [
      'https://example.com/hooks/in',
      'http://example.com',
      'https://hooks.example.com:8443/a/b?c=d#e',
      'https://EXAMPLE.com./x',
      'http://8.8.8.8/',
      'https://1.1.1.1:8443/',
      'http://[2001:4860:4860::8888]/',
      'http://[::ffff:8.8.8.8]/',
    ]) {
      const result = checkPublicUrl(value, options);
      expect(result, value).toMatchObject({ ok: true });
      if (result.ok) expect(result.url.href).toBe(new URL(value).href);
    }
  });

  it('refuses loopback in every IPv4 spelling, naming the normalised address', () => {
    for (const value of ['http://127.0.0.1/', 'http://127.1/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://0x7f000001/', 'http://127.0.0.1.:8080/']) {
      expect(message(value), value).toBe("url's host 127.0.0.1 is not a public address");
    }
    expect(message('http://127.255.0.9/')).toBe("url's host 127.255.0.9 is not a public address");
  });

  it('refuses private, link-local, metadata, carrier-grade NAT, reserved, multicast, broadcast and 0.0.0.0/8 IPv4 addresses', () => {
    for (const host of [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '203.0.113.9',
      '240.0.0.1',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
    ]) {
      expect(message(`https://${host}/hook`), host).toBe(`url's host ${host} is not a public address`);
    }
    // `0` and `0x0` are spellings of 0.0.0.0; `10.1` of 10.0.0.1.
    expect(message('http://0/')).toBe("url's host 0.0.0.0 is not a public address");
    expect(message('http://0x0/')).toBe("url's host 0.0.0.0 is not a public address");
    expect(message('http://10.1/')).toBe("url's host 10.0.0.1 is not a public address");
  });

  it('refuses non-public IPv6 literals, judging an IPv4-mapped address by the IPv4 it maps', () => {
    const refused: Array<[string, string]> = [
      ['[::1]', '[::1]'],
      ['[0:0:0:0:0:0:0:1]', '[::1]'],
      ['[::]', '[::]'],
      ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
      ['[::ffff:7f00:1]', '[::ffff:7f00:1]'],
      ['[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]'],
      ['[::ffff:10.0.0.1]', '[::ffff:a00:1]'],
      ['[::127.0.0.1]', '[::7f00:1]'],
      ['[fe80::1]', '[fe80::1]'],
      ['[fc00::1]', '[fc00::1]'],
      ['[fd12:3456::1]', '[fd12:3456::1]'],
      ['[fec0::1]', '[fec0::1]'],
      ['[ff02::1]', '[ff02::1]'],
      ['[64:ff9b::7f00:1]', '[64:ff9b::7f00:1]'],
      ['[2001:db8::1]', '[2001:db8::1]'],
      ['[100::1]', '[100::1]'],
    ];
    for (const [spelling, normalised] of refused) {
      expect(message(`http://${spelling}:8080/`), spelling).toBe(`url's host ${normalised} is not a public address`);
    }
  });

  it('refuses localhost, *.localhost and host names without a dot', () => {
    expect(message('http://localhost/')).toBe("url's host localhost is a local name, not a public host");
    expect(message('http://LOCALHOST.:3000/')).toBe("url's host localhost. is a local name, not a public host");
    expect(message('http://api.localhost/')).toBe("url's host api.localhost is a local name, not a public host");
    expect(message('http://metadata/computeMetadata/v1/')).toBe("url's host metadata is not a public host name (it has no dot)");
    expect(message('http://intranet/')).toBe("url's host intranet is not a public host name (it has no dot)");
    expect(message('http://metadata./')).toBe("url's host metadata. is not a public host name (it has no dot)");
  });

  it('accepts a host:port of allowedHosts whatever it is, and only with that exact port', () => {
    const allowed = { maxLength: 1000, allowedHosts: ['127.0.0.1:43219', 'localhost:8080'] };
    expect(checkPublicUrl('http://127.0.0.1:43219/hook', allowed)).toMatchObject({ ok: true });
    expect(checkPublicUrl('http://127.1:43219/hook', allowed)).toMatchObject({ ok: true });
    expect(checkPublicUrl('http://localhost:8080/', allowed)).toMatchObject({ ok: true });
    expect(message('http://127.0.0.1:43220/hook', allowed)).toBe("url's host 127.0.0.1 is not a public address");
    expect(message('http://127.0.0.1/hook', allowed)).toBe("url's host 127.0.0.1 is not a public address");
    expect(message('http://localhost/', allowed)).toBe("url's host localhost is a local name, not a public host");
    // A URL without a port is on its scheme's port: `host:80` and `host:443` entries name it.
    const defaults = { maxLength: 1000, allowedHosts: ['localhost:80', '10.0.0.5:443'] };
    expect(checkPublicUrl('http://localhost/x', defaults)).toMatchObject({ ok: true });
    expect(checkPublicUrl('http://localhost:80/x', defaults)).toMatchObject({ ok: true });
    expect(checkPublicUrl('https://10.0.0.5/x', defaults)).toMatchObject({ ok: true });
    expect(message('http://10.0.0.5/x', defaults)).toBe("url's host 10.0.0.5 is not a public address");
    expect(message('https://localhost/x', defaults)).toBe("url's host localhost is a local name, not a public host");
    // The allowlist does not lift the other rules.
    expect(message('ftp://127.0.0.1:43219/', allowed)).toBe('url must be http or https');
    expect(message('http://u:p@127.0.0.1:43219/', allowed)).toBe('url must not carry a user name or password');
  });

  it('refuses a user name or password', () => {
    for (const value of ['https://user:pass@example.com/', 'https://user@example.com/', 'https://:secret@example.com/', 'http://example.com@127.0.0.1/']) {
      expect(message(value), value).toBe('url must not carry a user name or password');
    }
  });

  it('refuses other schemes and values that are not absolute URLs', () => {
    for (const value of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'ws://example.com/']) {
      expect(message(value), value).toBe('url must be http or https');
    }
    for (const value of ['', 'example.com/hook', '/hooks', 'not a url', 'http://', 'http://[::1/']) {
      expect(message(value), value).toBe('url must be an absolute URL');
    }
  });

  it('refuses more than maxLength characters', () => {
    const prefix = 'https://example.com/';
    expect(checkPublicUrl(prefix + 'a'.repeat(1000 - prefix.length), options)).toMatchObject({ ok: true });
    expect(message(prefix + 'a'.repeat(1001 - prefix.length))).toBe('url must be at most 1000 characters');
    expect(message('https://example.com/hook', { maxLength: 10, allowedHosts: [] })).toBe('url must be at most 10 characters');
  });
});

describe('isPublicAddress', () => {
  it('accepts public unicast addresses as dns.lookup gives them', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2001:4860:4860::8888', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2001:4860:4860::8888]']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses every other address and anything that is not one', () => {
    for (const address of [
      '127.0.0.1',
      '0.0.0.0',
      '0.255.255.255',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.10',
      '169.254.169.254',
      '100.100.100.200',
      '224.0.0.251',
      '255.255.255.255',
      '::1',
      '[::1]',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
      '::7f00:1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      '',
      'localhost',
      'example.com',
      '1.2.3.4.5',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
