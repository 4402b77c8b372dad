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

export function layerMenu(view: LiveTableView): HTMLElement {
  const box = h('div');
  for (const layer of ALL_LAYERS) {
    const input = h('input', { type: 'checkbox', checked: view.visibleLayers.has(layer) });
    input.dataset.layer = layer;
    input.addEventListener('change', () => view.setLayerVisible(layer, input.checked));
    box.append(h('label', {}, input, ` ${layer}`));
  }
  return h('details', { className: 'layers' }, h('summary', {}, 'Layers'), box);
}
