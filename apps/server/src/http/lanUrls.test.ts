import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanUrls } from './lanUrls.ts';

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;

const interfaces = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  wlan0: [iface('192.168.1.20', 'IPv4'), iface('fe80::1', 'IPv6'), iface('fd00::20', 'IPv6')],
};

describe('lanUrls', () => {
  it('bound to every IPv4 address: one URL per non-internal IPv4 address, same scheme and port', () => {
    expect(lanUrls('https://0.0.0.0:8443', interfaces)).toEqual(['https://192.168.1.20:8443']);
  });
  it('bound to ::, IPv6 addresses too (not link-local)', () => {
    expect(lanUrls('http://[::]:8080', interfaces)).toEqual(['http://192.168.1.20:8080', 'http://[fd00::20]:8080']);
  });
  it('bound to one address: nothing to add', () => {
    expect(lanUrls('http://127.0.0.1:8080', interfaces)).toEqual([]);
    expect(lanUrls('http://192.168.1.20:8080', interfaces)).toEqual([]);
  });
});
