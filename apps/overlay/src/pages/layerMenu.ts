/** The "Layers" drop-down: one checkbox per annotation layer, wired to a view. */
import type { LayerId } from '@muster/rules';
import type { LiveTableView } from '../views/liveTableView.ts';
import { h } from './bootstrap.ts';

export const ALL_LAYERS: readonly LayerId[] = ['movement', 'fire', 'charge', 'command', 'formation', 'labels', 'measure', 'warnings'];

/** The layers a page's `?layers=fire,charge` asks for (all of them when the parameter is absent). */
export function layersFromUrl(params: URLSearchParams): Set<LayerId> {
  const asked = (params.get('layers') ?? ALL_LAYERS.join(',')).split(',');
  return new Set(ALL_LAYERS.filter((l) => asked.includes(l)));
}

/** `?ghosts=1` / `?ghosts=0` on a page's URL; `otherwise` when absent. */
export function ghostsFromUrl(params: URLSearchParams, otherwise: boolean): boolean {
  const v = params.get('ghosts');
  return v === null ? otherwise : v === '1' || v === 'true' || v === 'on';
}

/** What each layer holds, in players' words (the menu's text and tooltip). */
const LAYER_WORDS: Record<LayerId, [string, string]> = {
  movement: ['Movement', 'Where each unit can move, by road, and where it may not go'],
  fire: ['Fire', 'Fire arcs and lines to the targets a unit can (or must) fire at'],
  charge: ['Charge', 'How far a unit can charge'],
  command: ['Command', 'Links to commanders and brigade formation; broken links dashed'],
  formation: ['Formation', 'The formation the rules read from the stands'],
  labels: ['Dice labels', 'Dice and range next to each target line'],
  measure: ['Measurements', 'Distances the rules drew'],
  warnings: ['Warnings', 'Where the rules found something wrong'],
};

export function layerMenu(view: LiveTableView): HTMLElement {
  const box = h('div');
  for (const layer of ALL_LAYERS) {
    const input = h('input', { type: 'checkbox', checked: view.visibleLayers.has(layer) });
    input.dataset.layer = layer;
    input.addEventListener('change', () => view.setLayerVisible(layer, input.checked));
    const [label, tip] = LAYER_WORDS[layer];
    box.append(h('label', { title: tip }, input, ` ${label}`));
  }
  if (view.ghostsVisible !== null) {
    const input = h('input', { type: 'checkbox', checked: view.ghostsVisible });
    input.dataset.layer = 'ghosts';
    input.addEventListener('change', () => view.setGhostsVisible(input.checked));
    box.append(h('label', { title: 'Where each stand stood before its last move (from the game log), outlined, with a line to where it is now' }, input, ' Before its move'));
  }
  return h('details', { className: 'layers' }, h('summary', {}, 'Layers'), box);
}
