import { describe, expect, it } from 'vitest';
import { CliError } from '../cli/cliError.ts';
import { parseBrokerUrl } from './brokerUrl.ts';
import { resolveTableId, tableIdFromHostName } from './tableId.ts';

describe('parseBrokerUrl', () => {
  it('takes mqtt, mqtts, ws and wss with their default ports, a websocket path, and a credential it never shows', () => {
    expect(parseBrokerUrl('mqtt://hub.local', '--publish')).toEqual({ protocol: 'mqtt', url: 'mqtt://hub.local:1883', shown: 'mqtt://hub.local:1883' });
    expect(parseBrokerUrl('mqtts://broker.example', '--publish').url).toBe('mqtts://broker.example:8883');
    expect(parseBrokerUrl('ws://hub.local:9001', '--publish').url).toBe('ws://hub.local:9001/');
    expect(parseBrokerUrl('wss://x.emqxsl.com:8084/mqtt', '--publish').url).toBe('wss://x.emqxsl.com:8084/mqtt');
    const withUser = parseBrokerUrl(' mqtt://table-1:s%40cret@10.0.0.5:1884 ', '--publish');
    expect(withUser).toEqual({ protocol: 'mqtt', url: 'mqtt://10.0.0.5:1884', shown: 'mqtt://table-1:***@10.0.0.5:1884', username: 'table-1', password: 's@cret' });
  });

  it('refuses anything else with the option named and an example', () => {
    const refused = (v: string): string => {
      try {
        parseBrokerUrl(v, '--mqtt');
      } catch (err) {
        expect(err).toBeInstanceOf(CliError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${v}`);
    };
    expect(refused('hub.local:1883')).toMatch(/^--mqtt: the broker URL must start with mqtt:\/\//);
    expect(refused('http://hub.local')).toMatch(/must start with mqtt:\/\/, mqtts:\/\/, ws:\/\/ or wss:\/\//);
    expect(refused('nonsense')).toMatch(/^--mqtt takes a broker URL \(e\.g\. mqtt:\/\/192\.168\.1\.10:1883/);
    expect(refused('mqtt://hub.local/muster')).toMatch(/has no path/);
    expect(refused('mqtt://hub.local?x=1')).toMatch(/no query/);
  });
});

describe('the table id', () => {
  it('defaults to the host name made a topic level', () => {
    expect(tableIdFromHostName('table-1.local')).toBe('table-1');
    expect(tableIdFromHostName('Club PC (2)')).toBe('Club-PC-2-');
    expect(tableIdFromHostName('__')).toBe('table');
  });

  it('takes a given one only when it is a topic level', () => {
    expect(resolveTableId('hall-a.table-3')).toBe('hall-a.table-3');
    expect(() => resolveTableId('a/b')).toThrow(/--publish-table: a table id takes letters/);
    expect(() => resolveTableId('#')).toThrow(CliError);
  });
});
