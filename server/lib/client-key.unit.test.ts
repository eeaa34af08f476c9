import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key';

describe('clientKey', () => {
  it('keeps IPv4 addresses apart', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('203.0.113.6')).toBe('203.0.113.6');
  });
  it('puts every address of one IPv6 /64 under one key, however it is written', () => {
    const key = clientKey('2001:db8:1:2::1');
    for (const ip of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2:a:b:1.2.3.4',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::42'),
    ]) {
      expect(clientKey(ip), ip).toBe(key);
    }
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('::ffff:cb00:7105')).toBe('203.0.113.5');
  });
});
