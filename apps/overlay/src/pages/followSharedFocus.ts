/**
 * The map follows the operator (protocol 4 `LiveState.focus`, or an operator page in the same browser):
 * when the operator selects a unit the map selects it too (its options drawn, the rest hidden as after a
 * tap), and the operator's tape is drawn with its reading. Only changes are followed, so a viewer's own
 * tap holds until the operator selects something else. `?follow=0` turns it off.
 */
import type { LiveStore } from '../state/liveStore.ts';
import type { LiveTableView } from '../views/liveTableView.ts';
import { FocusChannel } from './focusChannel.ts';
import { measureGroup } from './measureDrawing.ts';

export function followSharedFocus(view: LiveTableView, store: LiveStore, params: URLSearchParams = new URLSearchParams(location.search)): FocusChannel | null {
  if (params.get('follow') === '0') return null;
  const channel = new FocusChannel({ store });
  channel.onFocus((unitId) => {
    const known = unitId !== null && (store.snapshot.state?.tableState.units.some((u) => u.id === unitId) ?? false);
    view.selectUnit(known ? unitId : null);
  });
  channel.onMeasure((m) => {
    view.setOverlay('measure', m ? measureGroup(m.from, m.to) : null);
    view.setExtraLabels(m ? [{ key: 'measure', at: { xIn: (m.from.xIn + m.to.xIn) / 2, yIn: (m.from.yIn + m.to.yIn) / 2 }, text: m.text, className: 'measure-label' }] : []);
  });
  return channel;
}
