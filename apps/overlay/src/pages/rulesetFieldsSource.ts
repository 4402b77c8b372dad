/**
 * The status fields a rule set declares, asked of the service once per rule set
 * (`GET /api/rulesets/<id>/fields`): static data, so the views need not bundle the rules to build the
 * status editor. A failed request is not kept, so the next selection asks again.
 */
import type { RulesetFieldSpec } from '@muster/rules';

const asked = new Map<string, Promise<readonly RulesetFieldSpec[]>>();

export function rulesetStatusFields(rulesetId: string): Promise<readonly RulesetFieldSpec[]> {
  let p = asked.get(rulesetId);
  if (!p) {
    p = fetch(`/api/rulesets/${encodeURIComponent(rulesetId)}/fields`).then(async (res) => {
      const body = (await res.json()) as { statusFields?: readonly RulesetFieldSpec[]; message?: string };
      if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
      return body.statusFields ?? [];
    });
    p.catch(() => asked.delete(rulesetId));
    asked.set(rulesetId, p);
  }
  return p;
}
