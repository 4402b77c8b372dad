/**
 * The WebGL canvas. The camera works in CSS pixels of the view (x right, y down); everything on the table
 * hangs under `root`, whose matrix is the table→screen homography. A map fit, a zoom, or a projector
 * calibration are all just a different homography, so there is one drawing path for every view.
 */
import * as THREE from 'three';
import type { Homography } from '../mapping/homography.ts';
import type { ScreenRectPx } from './damageRegion.ts';

export interface TableRendererOptions {
  /** Clear colour 0xRRGGBB, or null for a transparent canvas (OBS browser sources). */
  readonly background: number | null;
  /** Called when a lost WebGL context comes back, to redraw. */
  readonly onContextRestored?: () => void;
}

export class TableRenderer {
  readonly renderer: THREE.WebGLRenderer;
  readonly canvas: HTMLCanvasElement;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.OrthographicCamera(0, 1, 0, 1, -1000, 1000);
  /** Everything in table inches goes under here. */
  private readonly root = new THREE.Group();
  private widthPx = 1;
  /** Times the WebGL context was lost (shown on the test hooks). */
  contextLosses = 0;
  private heightPx = 1;
  /** True when WebGL is a software rasteriser: no multisampling, device pixel ratio 1. */
  readonly software: boolean;
  private homographyNow: Homography = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  private cloth: { readonly widthIn: number; readonly depthIn: number; readonly color: number } | null = null;
  private readonly background: number | null;

  constructor(private readonly container: HTMLElement, options: TableRendererOptions) {
    this.software = isSoftwareGl();
    this.background = options.background;
    this.renderer = new THREE.WebGLRenderer({
      // Multisampling is nearly free on a GPU but costs a software rasteriser (SwiftShader, llvmpipe) about
      // 40% of each frame (`npm run bench -- views`: GPU-process CPU per frame 191 → 117 ms at 1600×900).
      antialias: !this.software,
      alpha: options.background === null,
      // Kept between frames: a software rasteriser redraws only the parts that changed (liveTableView.ts),
      // and tests and the PNG export read the last frame after it is shown.
      preserveDrawingBuffer: true,
      premultipliedAlpha: true,
      // The table's outline is written to the stencil so annotations stop at the table's edge.
      stencil: true,
    });
    if (options.background === null) this.renderer.setClearColor(0x000000, 0);
    else this.renderer.setClearColor(options.background, 1);
    this.canvas = this.renderer.domElement;
    this.canvas.style.display = 'block';
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    container.appendChild(this.canvas);
    // A GPU reset (driver update, a phone backgrounding the tab) loses the context; three re-uploads
    // everything on restore, but nothing redraws until asked.
    this.canvas.addEventListener('webglcontextlost', (ev) => {
      ev.preventDefault();
      this.contextLosses++;
    });
    this.canvas.addEventListener('webglcontextrestored', () => options.onContextRestored?.());
    this.root.matrixAutoUpdate = false;
    this.scene.add(this.root);
    this.resize();
  }

  get sizePx(): { widthPx: number; heightPx: number } {
    return { widthPx: this.widthPx, heightPx: this.heightPx };
  }

  /** Re-reads the container size; returns true when it changed. */
  resize(): boolean {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    if (w === this.widthPx && h === this.heightPx) return false;
    this.widthPx = w;
    this.heightPx = h;
    // A phone's 3× screen would triple-square the pixels to fill for text-free flat colour: 2× is sharp enough.
    this.renderer.setPixelRatio(this.software ? 1 : Math.min(2, window.devicePixelRatio || 1));
    this.renderer.setSize(w, h, false);
    this.camera.left = 0;
    this.camera.right = w;
    this.camera.top = 0;
    this.camera.bottom = h;
    this.camera.updateProjectionMatrix();
    return true;
  }

  setHomography(h: Homography): void {
    // The 2D homography embedded in 4×4: z passes through, w carries the projective row. The orthographic
    // camera is affine, so the GPU's divide by w finishes the projective map exactly.
    this.root.matrix.set(h[0], h[1], 0, h[2], h[3], h[4], 0, h[5], 0, 0, 1, 0, h[6], h[7], 0, h[8]);
    this.root.matrixWorldNeedsUpdate = true;
    this.homographyNow = h;
  }

  /**
   * The plain table cloth (the group called 'cloth' draws the same). While the table lies square on screen
   * (a map fit, zoom, pan or quarter turn: no projective part, no rotation but quarters) it is cleared into
   * a scissor rectangle instead of drawn: a clear is a fill, a blended table-sized quad was about a third of
   * each map frame on a software rasteriser.
   */
  setCloth(cloth: { readonly widthIn: number; readonly depthIn: number; readonly color: number } | null): void {
    this.cloth = cloth;
  }

  /** Replaces the child called `name` under the root, returning the old one for disposal. */
  replaceLayer(name: string, group: THREE.Group | null): THREE.Object3D | undefined {
    const old = this.root.getObjectByName(name);
    if (old) this.root.remove(old);
    if (group) {
      group.name = name;
      // Bounding spheres do not survive a projective matrix; culling would drop shapes near the edges.
      group.traverse((o) => (o.frustumCulled = false));
      this.root.add(group);
    }
    return old;
  }

  /**
   * Draws the scene; `regions` (CSS px, y down) limits it to those rectangles, the rest of the kept
   * drawing buffer staying as it was (null: everything).
   */
  render(regions: readonly ScreenRectPx[] | null = null): void {
    const rect = this.cloth ? squareRectPx(this.homographyNow, this.cloth) : null;
    const clothGroup = this.root.getObjectByName('cloth');
    if (clothGroup) clothGroup.visible = rect === null;
    if (!rect && regions === null) {
      this.renderer.render(this.scene, this.camera);
      return;
    }
    const r = this.renderer;
    const areas = regions ?? [{ x: 0, y: 0, w: this.widthPx, h: this.heightPx }];
    r.autoClear = false;
    try {
      for (const a of areas) {
        r.setScissorTest(true);
        // GL's scissor counts rows from the bottom.
        r.setScissor(a.x, this.heightPx - a.y - a.h, a.w, a.h);
        r.clear(true, true, true);
        if (rect && this.cloth) {
          const x0 = Math.max(a.x, Math.round(rect.x0));
          const x1 = Math.min(a.x + a.w, Math.round(rect.x1));
          const y0 = Math.max(a.y, Math.round(rect.y0));
          const y1 = Math.min(a.y + a.h, Math.round(rect.y1));
          if (x1 > x0 && y1 > y0) {
            r.setClearColor(this.cloth.color, 1);
            r.setScissor(x0, this.heightPx - y1, x1 - x0, y1 - y0);
            r.clear(true, false, false);
            if (this.background === null) r.setClearColor(0x000000, 0);
            else r.setClearColor(this.background, 1);
            r.setScissor(a.x, this.heightPx - a.y - a.h, a.w, a.h);
          }
        }
        r.render(this.scene, this.camera);
      }
    } finally {
      r.setScissorTest(false);
      r.autoClear = true;
    }
  }

  dispose(): void {
    this.renderer.dispose();
    this.canvas.remove();
  }
}

/**
 * The table's screen rectangle (CSS px, y down) when `h` maps it square on screen (scale, translation and
 * quarter turns only), else null.
 */
export function squareRectPx(h: Homography, table: { readonly widthIn: number; readonly depthIn: number }): { x0: number; y0: number; x1: number; y1: number } | null {
  if (h[6] !== 0 || h[7] !== 0 || h[8] === 0) return null;
  if (!((h[1] === 0 && h[3] === 0) || (h[0] === 0 && h[4] === 0))) return null;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [[0, 0], [table.widthIn, 0], [table.widthIn, table.depthIn], [0, table.depthIn]] as const) {
    xs.push((h[0] * x + h[1] * y + h[2]) / h[8]);
    ys.push((h[3] * x + h[4] * y + h[5]) / h[8]);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Whether this browser's WebGL is a software rasteriser, from the renderer string it reports. */
function isSoftwareGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software|softpipe/i.test(name);
  } catch {
    return false;
  }
}
