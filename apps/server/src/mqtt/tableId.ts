/**
 * The table's id in the broker's topics (`muster/<id>/…`): `--publish-table`, else this machine's host
 * name made a valid topic level (each run of other characters becomes `-`).
 */
import { hostname } from 'node:os';
import { MQTT_MAX_TABLE_ID_CHARS, tableIdProblem } from '@muster/protocol';
import { CliError } from '../cli/cliError.ts';

export function tableIdFromHostName(name: string = hostname()): string {
  const id = name.split('.')[0]!.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, MQTT_MAX_TABLE_ID_CHARS);
  return id === '' ? 'table' : id;
}

/** The given id (checked; a `CliError` naming `--publish-table` when unusable), or the host's. */
export function resolveTableId(given: string | undefined): string {
  if (given === undefined) return tableIdFromHostName();
  const problem = tableIdProblem(given);
  if (problem) throw new CliError(`--publish-table: ${problem}`);
  return given;
}
