/**
 * "PNG": the table as on screen, saved as a picture of the turn. The WebGL canvas (kept after each frame:
 * `preserveDrawingBuffer`) is copied onto a 2D canvas with the labels drawn over it where they are on
 * screen (they are DOM text, not in the WebGL picture) and a caption line (turn, time), then downloaded
 * as `muster-turn-N.png`.
 */
import type { LiveState } from '@muster/protocol';
import type { LiveTableView } from '../views/liveTableView.ts';
import { h } from './bootstrap.ts';

/** The picture, as PNG bytes. */
export async function turnPng(view: LiveTableView, state: LiveState | null): Promise<Blob> {
  const gl = view.renderer.canvas;
  const out = document.createElement('canvas');
  out.width = gl.width;
  out.height = gl.height;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas in this browser');
  ctx.drawImage(gl, 0, 0);
  const box = gl.getBoundingClientRect();
  const k = gl.width / Math.max(1, box.width);
  ctx.textBaseline = 'top';
  for (const node of view.labels.element.querySelectorAll<HTMLElement>('.label')) {
    if (node.hidden || node.style.display === 'none' || !node.textContent) continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0) continue;
    const cs = getComputedStyle(node);
    ctx.font = `${cs.fontWeight} ${parseFloat(cs.fontSize) * k}px ${cs.fontFamily}`;
    const x = (r.left - box.left) * k;
    const y = (r.top - box.top) * k;
    // The same dark halo the page gives labels, so text reads over any colour.
    ctx.lineWidth = 3 * k;
    ctx.strokeStyle = 'rgba(0,0,0,0.75)';
    ctx.strokeText(node.textContent, x, y);
    ctx.fillStyle = cs.color;
    ctx.fillText(node.textContent, x, y);
  }
  if (state) {
    const caption = `Turn ${state.turn} · ${new Date(state.captureTimeMs || Date.now()).toLocaleString()} · Muster`;
    ctx.font = `${14 * k}px sans-serif`;
    ctx.fillStyle = 'rgba(0,0,0,0.6)';
    ctx.fillRect(0, out.height - 22 * k, ctx.measureText(caption).width + 16 * k, 22 * k);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(caption, 8 * k, out.height - 18 * k);
  }
  return new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser made no PNG'))), 'image/png'));
}

/** The "PNG" button: downloads the turn as shown. */
export function turnPngButton(view: LiveTableView): HTMLButtonElement {
  const button = h('button', { type: 'button', title: 'Save the table as shown as a PNG picture of this turn' }, 'PNG');
  button.id = 'export-png';
  button.addEventListener('click', () => {
    const state = view.currentState;
    void turnPng(view, state).then((blob) => {
      const a = h('a', { href: URL.createObjectURL(blob), download: `muster-turn-${state?.turn ?? 0}.png` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    });
  });
  return button;
}
