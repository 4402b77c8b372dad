/**
 * `projector.html?calibrate=1`: the projector calibration pattern, full-screen, in *device* pixels (the
 * projector's own pixels: the canvas backing store is the window size × devicePixelRatio). The tags and
 * their positions come from the same module the solver uses (`@muster/table-mapping`),
 * so what is shown is what `muster calibrate projector --projector-size <W>x<H>` expects for that size.
 * The size is printed in the middle; click for full screen (the pattern is redrawn for the new size).
 */
import { patternBlackRects, projectorPattern, type ProjectorPattern } from '@muster/table-mapping';

/** What the page drew, for tests and for the console. */
export interface ProjectorPatternHook {
  readonly widthPx: number;
  readonly heightPx: number;
  readonly tagIds: readonly number[];
  /** Times the pattern was drawn (each resize draws it again). */
  readonly draws: number;
}

declare global {
  interface Window {
    __musterProjectorPattern?: ProjectorPatternHook;
  }
}

function draw(canvas: HTMLCanvasElement, pattern: ProjectorPattern): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, pattern.widthPx, pattern.heightPx);
  ctx.fillStyle = '#000';
  for (const r of patternBlackRects(pattern)) ctx.fillRect(r.leftPx, r.topPx, r.widthPx, r.heightPx);
  // The size to pass as --projector-size, in the space kept free of tags.
  const box = pattern.labelBoxPx;
  const sizeText = `${pattern.widthPx}x${pattern.heightPx}`;
  const fontPx = Math.max(10, Math.round(box.heightPx / 7));
  ctx.font = `${fontPx}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#444';
  const cx = box.leftPx + box.widthPx / 2;
  const cy = box.topPx + box.heightPx / 2;
  ctx.fillText('Muster projector calibration', cx, cy - fontPx * 1.3, box.widthPx * 0.9);
  ctx.font = `bold ${Math.round(fontPx * 1.4)}px system-ui, sans-serif`;
  ctx.fillText(`--projector-size ${sizeText}`, cx, cy, box.widthPx * 0.9);
  ctx.font = `${Math.round(fontPx * 0.8)}px system-ui, sans-serif`;
  ctx.fillText('click: full screen', cx, cy + fontPx * 1.4, box.widthPx * 0.9);
}

export function showCalibrationPattern(body: HTMLElement): void {
  document.title = 'Muster: projector calibration pattern';
  body.style.margin = '0';
  body.style.overflow = 'hidden';
  body.style.background = '#fff';
  const canvas = document.createElement('canvas');
  canvas.style.display = 'block';
  canvas.style.position = 'fixed';
  canvas.style.left = '0';
  canvas.style.top = '0';
  body.append(canvas);
  let draws = 0;
  const render = (): void => {
    const dpr = window.devicePixelRatio || 1;
    const widthPx = Math.round(window.innerWidth * dpr);
    const heightPx = Math.round(window.innerHeight * dpr);
    canvas.width = widthPx;
    canvas.height = heightPx;
    canvas.style.width = `${widthPx / dpr}px`;
    canvas.style.height = `${heightPx / dpr}px`;
    let pattern: ProjectorPattern;
    try {
      pattern = projectorPattern(widthPx, heightPx);
    } catch (err) {
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, widthPx, heightPx);
      ctx.fillStyle = '#000';
      ctx.font = '16px system-ui, sans-serif';
      ctx.fillText((err as Error).message, 10, 30);
      return;
    }
    draw(canvas, pattern);
    draws++;
    window.__musterProjectorPattern = { widthPx, heightPx, tagIds: pattern.tags.map((t) => t.id), draws };
  };
  window.addEventListener('resize', render);
  canvas.addEventListener('click', () => {
    void document.documentElement.requestFullscreen?.().catch(() => undefined);
  });
  render();
}
