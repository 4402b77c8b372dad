/**
 * Runs `muster rules …` through the real CLI dispatcher in-process, capturing what it prints, for the
 * rules CLI tests of every rule set.
 */
import { vi } from 'vitest';
import { main } from '../../apps/server/src/cli/main.ts';

export async function runRulesCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await main(['rules', ...args]);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
