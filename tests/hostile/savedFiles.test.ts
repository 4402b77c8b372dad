/**
 * Every saved file is checked at start as strictly as the wire: a broken one stops the start with the
 * file and the field named, and is left exactly as it was (issue "Nothing one client or one fault can
 * break", items 7 and 9).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CORRUPT_FILE_CASES, runCorruptFileCase, validGameJson } from './corruptFiles.ts';

let validGame: Record<string, unknown>;
beforeAll(async () => {
  validGame = await validGameJson();
});

describe('corrupt saved files', () => {
  for (const c of CORRUPT_FILE_CASES) {
    it(c.name, async () => {
      const r = await runCorruptFileCase(c, validGame);
      expect(r.outcome, r.message).toBe(c.refusal === null ? 'started' : 'refused');
      expect(r.fileIntact).toBe(true);
    });
  }
});
