/**
 * The table as the map and the operator page show it: cloth, terrain, stands with unit names, every
 * layer, pan/zoom and picking, shapes filtered to the selected unit.
 */
import { LiveTableView, type LiveTableViewOptions } from '../views/liveTableView.ts';
import { ALL_LAYERS, ghostsFromUrl } from './layerMenu.ts';

type PageChoices = Omit<LiveTableViewOptions, 'background' | 'drawCloth' | 'drawTerrain' | 'drawStands' | 'unitLabels' | 'layers' | 'interactive' | 'filterBySelection'>;

export function fullTableView(options: PageChoices): LiveTableView {
  return new LiveTableView({
    background: 0x1c2126,
    drawCloth: true,
    drawTerrain: true,
    drawStands: true,
    unitLabels: true,
    layers: new Set(ALL_LAYERS),
    interactive: true,
    filterBySelection: true,
    legend: true,
    // Ghosts are on unless the URL says `?ghosts=0`.
    ghosts: ghostsFromUrl(new URLSearchParams(location.search), true),
    ...options,
  });
}
