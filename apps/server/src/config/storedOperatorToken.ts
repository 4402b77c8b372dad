/**
 * The operator token kept in the data directory (`<data>/operator-token`, mode 0600), so the operator
 * URL printed at start keeps working across restarts: made on the first start, read on every later one,
 * replaced only when asked (`--rotate-token`). Made with an exclusive create, so a token already there is
 * never overwritten except by a rotation; replaced atomically (temp file, rename), so a crash
 * leaves the old token or the new one.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createOperatorToken } from '../http/operatorToken.ts';
import { createSecretFile, replaceSecretFile } from './writeSecretFile.ts';

export const OPERATOR_TOKEN_FILE = 'operator-token';

export interface StoredOperatorToken {
  readonly token: string;
  readonly path: string;
  /** made now (first start), read (later starts), or replaced (`--rotate-token`). */
  readonly state: 'created' | 'reused' | 'rotated';
  /** Set when the file had looser permissions than 0600 and was tightened. */
  readonly tightened: boolean;
}

/** What is wrong with a token, or null (at least 8 characters, no white space). */
export function operatorTokenProblem(token: string): string | null {
  if (token.length < 8) return 'must be at least 8 characters';
  if (/\s/.test(token)) return 'must not contain spaces';
  return null;
}

/** The data directory's token: read, made when missing, or replaced when `rotate`. Throws naming the file. */
export function storedOperatorToken(dataDir: string, options: { rotate?: boolean } = {}): StoredOperatorToken {
  const path = join(dataDir, OPERATOR_TOKEN_FILE);
  try {
    if (options.rotate) {
      const token = createOperatorToken();
      replaceSecretFile(path, `${token}\n`);
      return { token, path, state: 'rotated', tightened: false };
    }
    const token = createOperatorToken();
    if (createSecretFile(path, `${token}\n`)) return { token, path, state: 'created', tightened: false };
  } catch (err) {
    throw new Error(`${path}: cannot write the operator token (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let text: string;
  let tightened = false;
  try {
    text = readFileSync(path, 'utf8');
    // Copied in or made by hand with the usual 0644: the token must not be readable by others.
    if ((statSync(path).mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
      tightened = true;
    }
  } catch (err) {
    throw new Error(`${path}: cannot read the operator token (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const token = (text.split(/\r?\n/)[0] ?? '').trim();
  const problem = operatorTokenProblem(token);
  if (problem) throw new Error(`${path}: the stored operator token ${problem}; start with --rotate-token to make a new one`);
  return { token, path, state: 'reused', tightened };
}
