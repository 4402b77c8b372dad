/**
 * GET /api/rulesets/<id>/fields on the real server: every installed rule set's declarations as it
 * declares them (the operator's status editor builds its inputs from `statusFields`); an unknown id is a
 * JSON 404 naming the installed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedRulesets } from '@muster/rules';
import type { ServiceBackend } from '../../apps/server/src/http/backend.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';

// The route needs nothing of the backend; anything else it touched would throw.
const backend = new Proxy({ subscribe: () => () => {} } as unknown as ServiceBackend, {
  get: (target, key) => (key in target ? (target as unknown as Record<PropertyKey, unknown>)[key] : () => {
    throw new Error(`backend.${String(key)} not expected`);
  }),
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ backend, operatorToken: 'fields-token', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/rulesets/:id/fields', () => {
  it('answers each installed rule set’s declarations', async () => {
    for (const r of installedRulesets) {
      const res = await fetch(`${server.url}/api/rulesets/${r.id}/fields`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(JSON.parse(JSON.stringify({ id: r.id, name: r.name, statusFields: r.statusFields ?? [], unitFields: r.unitFields ?? [], parameters: r.parameters ?? [] })));
    }
  });
  it('refuses an unknown id with a JSON 404 naming the installed ones', async () => {
    const res = await fetch(`${server.url}/api/rulesets/no-such-rules/fields`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('not-found');
    expect(body.message).toContain('no rule set "no-such-rules" (installed: devil-to-pay');
  });
});
