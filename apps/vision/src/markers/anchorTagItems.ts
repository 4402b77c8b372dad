/** The table's anchor tags to print, each at its own size, labelled with its surveyed pose. */
import type { Cv } from '../cv/loadCv.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import type { TagItem } from './layoutTagSheets.ts';
import { markerModules } from './markerModules.ts';

export function anchorTagItems(cv: Cv, profile: TableProfile): TagItem[] {
  return profile.anchors.map((a) => ({
    tagId: a.id,
    label: `anchor at (${a.xIn}, ${a.yIn}) in, top edge ${a.headingDeg} deg`,
    sizeIn: a.sizeIn,
    modules: markerModules(cv, profile.dictionary, a.id),
  }));
}
