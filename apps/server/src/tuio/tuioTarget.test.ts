import { describe, expect, it } from 'vitest';
import { CliError } from '../cli/cliError.ts';
import { formatTuioTarget, parseTuioTarget } from './tuioTarget.ts';

describe('parseTuioTarget (--tuio host:port)', () => {
  it('reads host:port, [ipv6]:port and a bare port', () => {
    expect(parseTuioTarget('localhost:3333')).toEqual({ host: 'localhost', port: 3333 });
    expect(parseTuioTarget(' 192.168.1.20:3334 ')).toEqual({ host: '192.168.1.20', port: 3334 });
    expect(parseTuioTarget('table-pc.local:1')).toEqual({ host: 'table-pc.local', port: 1 });
    expect(parseTuioTarget('[::1]:65535')).toEqual({ host: '::1', port: 65535 });
    expect(parseTuioTarget('3333')).toEqual({ host: '127.0.0.1', port: 3333 });
    expect(formatTuioTarget({ host: '::1', port: 3333 })).toBe('[::1]:3333');
    expect(formatTuioTarget({ host: 'localhost', port: 3333 })).toBe('localhost:3333');
  });

  it.each([
    ['localhost', /--tuio needs host:port/],
    ['', /--tuio needs host:port/],
    [':3333', /--tuio needs host:port/],
    ['localhost:', /port must be a whole number.*got ""/],
    ['localhost:abc', /port must be a whole number.*got "abc"/],
    ['localhost:33.3', /port must be a whole number/],
    ['localhost:-1', /port must be a whole number/],
    ['localhost:0', /port must be from 1 to 65535, got 0/],
    ['localhost:65536', /port must be from 1 to 65535, got 65536/],
    ['99999', /port must be from 1 to 65535/],
    ['::1:3333', /IPv6 address in brackets/],
    ['[localhost]:3333', /not an IPv6 address/],
    ['udp://localhost:3333', /IPv6 address in brackets|needs host:port/],
    ['my host:3333', /needs host:port/],
  ])('rejects %j with a message naming the option', (value, message) => {
    let err: unknown;
    try {
      parseTuioTarget(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/^--tuio/);
    expect((err as Error).message).toMatch(message);
  });

  it('names another option when told', () => {
    expect(() => parseTuioTarget('x', '--tuio-out')).toThrow(/^--tuio-out needs host:port/);
  });
});
