/**
 * Keeps the ghosts (`GET /api/ghosts`) up to date: asked again whenever the view says the stands changed,
 * one request at a time, at most every `minIntervalMs`, the newest answer winning. A failed request keeps
 * the last ghosts (a replay or an older service without the route just shows none).
 */
import { parseGhosts, type Ghost } from '../geometry/ghostMarks.ts';

export class GhostFeed {
  private inFlight = false;
  private dirty = false;
  private lastStartMs = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly onGhosts: (ghosts: Ghost[]) => void,
    private readonly url = '/api/ghosts',
    private readonly minIntervalMs = 250,
  ) {}

  /** The stands changed: ask again (now, or as soon as the one under way and the interval allow). */
  request(): void {
    if (this.stopped) return;
    this.dirty = true;
    this.pump();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private pump(): void {
    if (this.inFlight || this.timer || !this.dirty || this.stopped) return;
    const waitMs = this.lastStartMs + this.minIntervalMs - Date.now();
    if (waitMs > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, waitMs);
      return;
    }
    this.dirty = false;
    this.inFlight = true;
    this.lastStartMs = Date.now();
    fetch(this.url, { cache: 'no-store' })
      .then(async (res) => (res.ok ? parseGhosts(await res.json()) : null))
      .catch(() => null)
      .then((ghosts) => {
        this.inFlight = false;
        if (ghosts && !this.stopped) this.onGhosts(ghosts);
        this.pump();
      });
  }
}
