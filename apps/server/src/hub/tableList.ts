/**
 * The tables a convention hub lists: each a name and the base URL of its own `muster start` service,
 * from `--table "Name=URL"` flags and/or a YAML/JSON file (`tables: [{ name, url, token? }]`). An operator
 * token is taken only from the file (a flag would show it in `ps`).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export interface HubTable {
  readonly name: string;
  /** Base URL without a trailing slash, e.g. http://192.168.1.20:8081 */
  readonly url: string;
  /** The table's operator token, when the hub may link to its operator page. */
  readonly token?: string;
}

export class TableListError extends Error {}

function baseUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TableListError(`${where}: "${raw}" is not a URL (e.g. http://192.168.1.20:8081)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TableListError(`${where}: "${raw}" must start with http:// or https://`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TableListError(`${where}: "${raw}" must be the service's base URL only (no query, fragment or password)`);
  }
  return url.href.replace(/\/+$/, '');
}

function checkName(name: string, where: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 80) throw new TableListError(`${where}: a table name must be 1 to 80 characters, got "${name}"`);
  return trimmed;
}

/** `Name=URL` (the first `=` splits: names cannot hold one, URLs may). */
export function tableFromFlag(spec: string): HubTable {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new TableListError(`--table takes "Name=URL", e.g. --table "Table 1=http://192.168.1.20:8081", got "${spec}"`);
  const where = `--table "${spec}"`;
  return { name: checkName(spec.slice(0, eq), where), url: baseUrl(spec.slice(eq + 1).trim(), where) };
}

/** The tables of a YAML or JSON file: `tables:` a list of `{ name, url, token? }`. */
export function tablesFromFile(file: string): HubTable[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new TableListError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new TableListError(`${file} is not valid YAML/JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = (doc as { tables?: unknown } | null)?.tables;
  if (!Array.isArray(list)) throw new TableListError(`${file}: expected "tables:" with a list of { name, url, token? }`);
  return list.map((item: unknown, i) => {
    const where = `${file}: tables[${i}]`;
    if (item === null || typeof item !== 'object') throw new TableListError(`${where} must be { name, url, token? }`);
    const { name, url, token, ...rest } = item as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new TableListError(`${where}: unknown key "${extra[0]}" (keys: name, url, token)`);
    if (typeof name !== 'string') throw new TableListError(`${where}: name must be a string`);
    if (typeof url !== 'string') throw new TableListError(`${where}: url must be a string`);
    if (token !== undefined && (typeof token !== 'string' || token === '')) throw new TableListError(`${where}: token must be a non-empty string`);
    return { name: checkName(name, where), url: baseUrl(url, where), ...(token !== undefined ? { token } : {}) };
  });
}

/** The union of both sources, refusing an empty list and duplicate names. */
export function checkedTables(tables: readonly HubTable[]): HubTable[] {
  if (tables.length === 0) throw new TableListError('no tables: give --table "Name=URL" (repeatable) or --file tables.yaml');
  const seen = new Set<string>();
  for (const t of tables) {
    if (seen.has(t.name)) throw new TableListError(`table "${t.name}" is listed twice`);
    seen.add(t.name);
  }
  return [...tables];
}
