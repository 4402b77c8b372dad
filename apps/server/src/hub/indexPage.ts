/**
 * The hub's index page: one row per table with its live status and links to its views. Plain HTML with a
 * meta refresh (no script), so it works on any phone or kiosk browser. Operator links carry the table's
 * token, so they are drawn only when `withOperator` (the hub decides: requests from this machine).
 */
import type { HubTable } from './tableList.ts';
import type { TableStatus } from './tableStatus.ts';

export const REFRESH_S = 5;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function link(href: string, text: string): string {
  return `<a href="${esc(href)}">${esc(text)}</a>`;
}

function row(table: HubTable, status: TableStatus, withOperator: boolean): string {
  const links = [link(`${table.url}/map.html`, 'map'), link(`${table.url}/overlay.html`, 'overlay'), link(`${table.url}/projector.html`, 'projector')];
  if (withOperator && table.token !== undefined) links.push(link(`${table.url}/operator.html?token=${encodeURIComponent(table.token)}`, 'operator'));
  const state = status.up
    ? `<span class="up">up</span> ${esc(status.health ?? '')}${status.warnings && status.warnings.length > 0 ? `<br><small>${esc(status.warnings.join('; '))}</small>` : ''}`
    : `<span class="down">down</span><br><small>${esc(status.problem ?? '')}</small>`;
  const camera = status.cameraState ?? (status.source?.startsWith('demo') ? `(${status.source})` : '');
  return (
    `<tr data-table="${esc(table.name)}" data-up="${status.up}">` +
    `<th>${esc(table.name)}<br><small>${esc(table.url)}</small></th>` +
    `<td>${state}</td><td>${esc(status.rulesetId ?? '')}</td><td>${status.turn ?? ''}</td><td>${esc(camera)}</td>` +
    `<td>${status.trackedStands ?? ''}</td><td>${links.join(' · ')}</td></tr>`
  );
}

export function indexPage(tables: readonly HubTable[], statuses: readonly TableStatus[], withOperator: boolean, checkedAt: Date): string {
  const rows = tables.map((t, i) => row(t, statuses[i]!, withOperator)).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_S}"><title>Muster tables</title>
<style>
body{font:16px system-ui,sans-serif;margin:1rem;background:#f6f4ef;color:#222}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ccc;vertical-align:top}
.up{color:#176c2e;font-weight:bold}.down{color:#b3261e;font-weight:bold}small{color:#666}
</style></head><body>
<h1>Muster tables</h1>
<table><thead><tr><th>Table</th><th>Status</th><th>Rules</th><th>Turn</th><th>Camera</th><th>Stands</th><th>Views</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p><small>Checked ${esc(checkedAt.toISOString())}; this page refreshes every ${REFRESH_S} s. JSON: <a href="/api/tables">/api/tables</a>.</small></p>
</body></html>
`;
}
