/**
 * The operator token `muster start` runs with, from the first of: `--token-file` / `--token` (flag, then
 * `MUSTER_TOKEN_FILE` / `MUSTER_TOKEN`, then the config file's `token-file` / `token`), else the token
 * stored in the data directory (`storedOperatorToken.ts`; `--rotate-token` replaces it). A token on the
 * command line works but is warned about: every user of the machine sees it in `ps`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli/cliError.ts';
import type { ResolvedStartValues, StartValue } from './resolveStartValues.ts';
import { operatorTokenProblem, storedOperatorToken } from './storedOperatorToken.ts';

export interface OperatorTokenChoice {
  readonly token: string;
  /** Where it came from, for the start banner: `--token-file x`, `MUSTER_TOKEN`, `stored in <path>`, … */
  readonly from: string;
  /** Warnings for stderr (the `--token` one, a stored token file whose permissions were tightened). */
  readonly warnings: readonly string[];
}

export function resolveOperatorToken(
  resolved: ResolvedStartValues<Record<string, StartValue | undefined>>,
  dataDir: string,
): OperatorTokenChoice {
  const { values } = resolved;
  const file = values['token-file'] as string | undefined;
  const inline = values['token'] as string | undefined;
  const rotate = values['rotate-token'] === true;
  const warnings: string[] = [];
  let token: string;
  let from: string;
  if (file !== undefined) {
    let text: string;
    const label = resolved.labelOf('token-file');
    try {
      text = readFileSync(resolve(file), 'utf8');
    } catch (err) {
      throw new CliError(`${label} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    token = (text.split(/\r?\n/)[0] ?? '').trim();
    from = `${label} ${file}`;
  } else if (inline !== undefined) {
    if (resolved.sourceOf('token') === 'flag') {
      warnings.push('--token shows the operator token to every user of this machine (ps); use MUSTER_TOKEN=… or --token-file <file> instead');
    }
    token = inline.trim();
    from = resolved.labelOf('token');
  } else {
    let stored;
    try {
      stored = storedOperatorToken(dataDir, { rotate });
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    if (stored.tightened) warnings.push(`${stored.path} could be read by other users; its permissions are now 0600`);
    const how = stored.state === 'created' ? 'made now, kept in' : stored.state === 'rotated' ? 'new (--rotate-token), kept in' : 'kept in';
    return { token: stored.token, from: `${how} ${stored.path}`, warnings };
  }
  if (rotate) {
    throw new CliError(`--rotate-token replaces the token stored in the data directory, but the token is given by ${from}; drop one of them`);
  }
  const problem = operatorTokenProblem(token);
  if (problem) throw new CliError(`the operator token (${from}) ${problem}`);
  return { token, from, warnings };
}
