/**
 * The operator token kept in the data directory (`<data>/operator-token`, mode 0600), so the operator
 * URL printed at start keeps working across restarts: made on the first start, read on every later one,
 * replaced only when asked (`--rotate-token`). Made with an exclusive create, so a token already there is
 * never overwritten except by a rotation; replaced atomically (temp file, rename), so a crash
 * leaves the old token or the new one.
 *
 * The file holds the token on its first line and `sha256:<hex>` of it on the second: a token changed
 * after it was made (a flipped bit, an edit) is refused rather than used as is. A file without the second
 * line (made by hand) is read as before. The file is never read or chmod-ed through a symbolic link (a
 * link would hand the service, and its chmod, another file).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
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

const tokenSum = (token: string): string => `sha256:${createHash('sha256').update(token).digest('hex')}`;

/** The file's text for `token`: the token, then its checksum. */
const tokenFileText = (token: string): string => `${token}\n${tokenSum(token)}\n`;

/** The data directory's token: read, made when missing, or replaced when `rotate`. Throws naming the file. */
export function storedOperatorToken(dataDir: string, options: { rotate?: boolean } = {}): StoredOperatorToken {
  const path = join(dataDir, OPERATOR_TOKEN_FILE);
  try {
    if (options.rotate) {
      const token = createOperatorToken();
      replaceSecretFile(path, tokenFileText(token));
      return { token, path, state: 'rotated', tightened: false };
    }
    const token = createOperatorToken();
    if (createSecretFile(path, tokenFileText(token))) return { token, path, state: 'created', tightened: false };
  } catch (err) {
    throw new Error(`${path}: cannot write the operator token (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let text: string;
  let tightened = false;
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new Error(
      `${path} is a symbolic link; Muster does not read the operator token through a link (it would read, and chmod, the file it points to). ` +
        'Replace the link with the token file itself, or remove it and start again for a new token (the operator URL changes)',
    );
  }
  let fd: number | null = null;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
    text = readFileSync(fd, 'utf8');
    // Copied in or made by hand with the usual 0644: the token must not be readable by others.
    if ((st.mode & 0o077) !== 0) {
      fchmodSync(fd, 0o600);
      tightened = true;
    }
  } catch (err) {
    throw new Error(`${path}: cannot read the operator token (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const lines = text.split(/\r?\n/);
  const token = (lines[0] ?? '').trim();
  const problem = operatorTokenProblem(token);
  if (problem) throw new Error(`${path}: the stored operator token ${problem}; start with --rotate-token to make a new one`);
  const sum = (lines[1] ?? '').trim();
  if (sum !== '' && sum !== tokenSum(token)) {
    throw new Error(
      `${path}: the stored operator token does not match the checksum on its second line: the file was changed after Muster made it (damage, or an edit), so the token is not used. ` +
        'Start with --rotate-token to make a new one (the operator URL changes); if you set the token by hand on purpose, delete the second line',
    );
  }
  return { token, path, state: 'reused', tightened };
}
