/**
 * The operator's "Camera" toggle: the newest camera frame (`GET /api/frame.jpg`) laid on the table as a
 * backdrop, refreshed every few seconds while shown, so terrain can be drawn over the real table. It
 * needs the service's image→table homography (state.profile) and a frame; without either the toggle is
 * disabled and its title says why.
 */
import type { LiveState } from '@muster/protocol';
import { toHomography } from '@muster/table-mapping';
import type { LiveStore } from '../state/liveStore.ts';
import { buildCameraBackdropGroup, disposeBackdropTextures } from '../views/cameraBackdrop.ts';
import type { LiveTableView } from '../views/liveTableView.ts';
import { h } from './bootstrap.ts';

/** Frames move with the table (hands, stands); a few seconds keeps the photo current at little cost. */
const REFRESH_MS = 4000;

/** Why the backdrop cannot be shown for this state, or null when it can. */
function unavailableReason(state: LiveState | null): string | null {
  if (!state) return 'Waiting for the service';
  const p = state.profile;
  if (!p.homography || !p.frameWidthPx || !p.frameHeightPx) {
    return p.source === 'demo-truth'
      ? 'No camera: this service runs the ground-truth demo (no frames)'
      : 'The camera is not solved yet (no image→table homography): show the corner tags to the camera';
  }
  return null;
}

export function cameraBackdropControl(view: LiveTableView, store: LiveStore): HTMLElement {
  const input = h('input', { type: 'checkbox' });
  input.id = 'camera-backdrop';
  const label = h('label', { className: 'camera-toggle' }, input, ' Camera');
  const refresh = h('button', { type: 'button', title: 'Fetch the newest camera frame' }, '↻');
  refresh.id = 'camera-refresh';
  refresh.hidden = true;
  let image: HTMLImageElement | null = null;
  let builtFor: { image: unknown; profile: unknown; table: unknown } = { image: null, profile: null, table: null };
  let timer: ReturnType<typeof setInterval> | null = null;
  let fetching = false;

  let currentGroup: ReturnType<typeof buildCameraBackdropGroup> | null = null;
  const setBackdrop = (group: ReturnType<typeof buildCameraBackdropGroup> | null): void => {
    // The view frees the old group's geometry and material; its texture is ours to free.
    if (currentGroup) disposeBackdropTextures(currentGroup);
    currentGroup = group;
    view.setOverlay('backdrop', group);
  };

  const rebuild = (): void => {
    const state = view.currentState ?? store.snapshot.state;
    const p = state?.profile;
    if (!input.checked || !image || !state || !p?.homography || !p.frameWidthPx || !p.frameHeightPx) {
      if (currentGroup) setBackdrop(null);
      builtFor = { image: null, profile: null, table: null };
      return;
    }
    if (builtFor.image === image && builtFor.profile === p && builtFor.table === state.tableState.table) return;
    setBackdrop(buildCameraBackdropGroup(image, toHomography(p.homography), { widthPx: p.frameWidthPx, heightPx: p.frameHeightPx }, state.tableState.table));
    builtFor = { image, profile: p, table: state.tableState.table };
  };

  const fetchFrame = async (): Promise<void> => {
    if (fetching) return;
    fetching = true;
    try {
      const res = await fetch('/api/frame.jpg', { cache: 'no-store' });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        label.title = `No camera frame: ${body?.message ?? `HTTP ${res.status}`}`;
        return;
      }
      const url = URL.createObjectURL(await res.blob());
      const next = new Image();
      next.src = url;
      try {
        await next.decode();
      } finally {
        URL.revokeObjectURL(url);
      }
      if (!input.checked) return;
      image = next;
      label.title = 'The newest camera frame under the map, through the camera homography';
      input.dataset.frameSeq = res.headers.get('X-Frame-Seq') ?? '';
      rebuild();
    } catch (err) {
      label.title = `Camera frame failed: ${(err as Error).message}`;
    } finally {
      fetching = false;
    }
  };

  const syncAvailability = (state: LiveState | null): void => {
    const reason = unavailableReason(state);
    input.disabled = reason !== null;
    if (reason !== null) {
      label.title = reason;
      if (input.checked) {
        input.checked = false;
        onToggle();
      }
    } else if (!input.checked) {
      label.title = 'Show the newest camera frame under the map';
    }
    label.classList.toggle('disabled', reason !== null);
  };

  function onToggle(): void {
    refresh.hidden = !input.checked;
    if (timer) clearInterval(timer);
    timer = null;
    if (input.checked) {
      void fetchFrame();
      timer = setInterval(() => void fetchFrame(), REFRESH_MS);
    } else {
      image = null;
      delete input.dataset.frameSeq;
    }
    rebuild();
  }

  input.addEventListener('change', onToggle);
  refresh.addEventListener('click', () => void fetchFrame());
  store.subscribe((s) => {
    syncAvailability(s.state);
    // A new solution (the camera was nudged) or a new table moves the photo: re-lay it.
    rebuild();
  });
  syncAvailability(store.snapshot.state);
  return h('span', { className: 'camera-control' }, label, refresh);
}
