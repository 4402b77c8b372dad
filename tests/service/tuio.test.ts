/**
 * TUIO 1.1 output on the wire: a real UDP socket on 127.0.0.1 receives what the output sends, decoded by
 * osc-min (an independent OSC decoder) and checked against the TUIO 1.1 `/tuio/2Dobj` profile: bundles
 * of source, alive, set..., fseq; fseq rising; a vanished track out of alive; a tag that comes back a new
 * session; a keep-alive at least once a second; nothing thrown when nobody listens; and the real demo
 * pipeline's states, attached the way `muster start --tuio` does.
 */
import dgram from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import type { LiveState } from '@muster/protocol';
import { attachTuioOutput, startTuioOutput } from '../../apps/server/src/tuio/tuioOutput.ts';
import { toTuioPose } from '../../apps/server/src/tuio/tuioMapping.ts';
import { decodeTuioBundle, scriptedState, type ScriptedTrack, type TuioBundle } from '../../apps/server/src/tuio/tuioTestKit.ts';
import { startDemo, tempDir } from './helpers.ts';

const f32 = Math.fround;

interface Received {
  readonly atMs: number;
  readonly bundle: TuioBundle;
}

/** A UDP socket on 127.0.0.1 that decodes every datagram as a TUIO bundle (a datagram that is not one fails the test). */
class TuioListener {
  readonly received: Received[] = [];
  readonly errors: unknown[] = [];
  private waiters: (() => void)[] = [];
  private read = 0;

  private constructor(private readonly socket: dgram.Socket) {
    socket.on('message', (msg) => {
      try {
        this.received.push({ atMs: performance.now(), bundle: decodeTuioBundle(msg) });
      } catch (err) {
        this.errors.push(err);
      }
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    });
  }

  static async open(port = 0): Promise<TuioListener> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => resolve());
    });
    return new TuioListener(socket);
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** The next bundle not yet taken. */
  async next(timeoutMs = 3000): Promise<TuioBundle> {
    const deadline = performance.now() + timeoutMs;
    while (this.read >= this.received.length) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no TUIO bundle within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    expect(this.errors).toEqual([]);
    return this.received[this.read++]!.bundle;
  }

  /** Nothing arrives for `ms`. */
  async quiet(ms: number): Promise<void> {
    const before = this.received.length;
    await new Promise((r) => setTimeout(r, ms));
    expect(this.received.slice(before).map((r) => r.bundle)).toEqual([]);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

async function freeUdpPort(): Promise<number> {
  const l = await TuioListener.open();
  const port = l.port;
  await l.close();
  return port;
}

const A: ScriptedTrack = { trackId: 1, markerId: 40, xIn: 0, yIn: 0, headingDeg: 90 };
const B: ScriptedTrack = { trackId: 2, markerId: 41, xIn: 72, yIn: 48, headingDeg: 0 };

describe('TUIO 1.1 output over UDP (127.0.0.1)', () => {
  it('sends one TUIO frame per changed state: appear, move, turn, vanish, come back as a new session', async () => {
    const listener = await TuioListener.open();
    const logs: string[] = [];
    const out = startTuioOutput({ host: '127.0.0.1', port: listener.port, source: 'muster@test-table', keepAliveMs: 60_000, log: (m) => logs.push(m) });
    try {
      expect(out.target).toBe(`127.0.0.1:${listener.port}`);
      // First contact: an empty scene.
      const hello = await listener.next();
      expect(hello).toMatchObject({ timetag: [0, 1], source: 'muster@test-table', alive: [], sets: [] });

      // Two stands appear: A at the near-left corner facing away from the player, B at the far-right facing right.
      out.publish(scriptedState(1, 10_000, [A, B]));
      const appear = await listener.next();
      expect(appear.alive).toEqual([1, 2]);
      expect(appear.sets).toEqual([
        { s: 1, i: 40, x: 0, y: 1, a: f32((3 * Math.PI) / 2), X: 0, Y: 0, A: 0, m: 0, r: 0 },
        { s: 2, i: 41, x: 1, y: 0, a: 0, X: 0, Y: 0, A: 0, m: 0, r: 0 },
      ]);

      // A moves 7.2" right and 4.8" away in 0.2 s (0.1 of the surface each way: y falls).
      out.publish(scriptedState(2, 10_200, [{ ...A, xIn: 7.2, yIn: 4.8 }, B]));
      const move = await listener.next();
      expect(move.alive).toEqual([1, 2]);
      expect(move.sets).toHaveLength(1);
      const m = move.sets[0]!;
      expect([m.s, m.i]).toEqual([1, 40]);
      expect(m.x).toBeCloseTo(0.1, 6);
      expect(m.y).toBeCloseTo(0.9, 6);
      expect(m.X).toBeCloseTo(0.5, 5);
      expect(m.Y).toBeCloseTo(-0.5, 5);
      expect(m.A).toBe(0);

      // The same frame published again (a rules result): nothing on the wire.
      out.publish(scriptedState(3, 10_200, [{ ...A, xIn: 7.2, yIn: 4.8 }, B]));
      await listener.quiet(150);

      // B turns from facing right to facing the player (90° clockwise seen from above) in 0.2 s; A stops.
      out.publish(scriptedState(4, 10_400, [{ ...A, xIn: 7.2, yIn: 4.8 }, { ...B, headingDeg: 270 }]));
      const turn = await listener.next();
      expect(turn.sets.map((s) => s.s)).toEqual([1, 2]);
      const [stopA, turnB] = turn.sets as [TuioBundle['sets'][0], TuioBundle['sets'][0]];
      expect([stopA.X, stopA.Y]).toEqual([0, 0]);
      expect(turnB.a).toBeCloseTo(Math.PI / 2, 6);
      expect(turnB.A).toBeCloseTo(1.25, 5); // a quarter turn clockwise in 0.2 s

      // A leaves the table (its track ended): out of alive, no set for it.
      out.publish(scriptedState(5, 10_600, [{ ...B, headingDeg: 270 }]));
      const vanish = await listener.next();
      expect(vanish.alive).toEqual([2]);
      expect(vanish.sets.map((s) => s.s)).toEqual([2]); // B's rotation speed fell to 0

      // Tag 40 comes back (the tracker gives it track 3): a new session id, same class id.
      out.publish(scriptedState(6, 10_800, [{ ...B, headingDeg: 270 }, { trackId: 3, markerId: 40, xIn: 36, yIn: 24, headingDeg: 180 }]));
      const back = await listener.next();
      expect(back.alive).toEqual([2, 3]);
      expect(back.sets).toContainEqual({ s: 3, i: 40, x: 0.5, y: 0.5, a: f32(Math.PI), X: 0, Y: 0, A: 0, m: 0, r: 0 });

      const frames = [hello, appear, move, turn, vanish, back];
      for (let k = 1; k < frames.length; k++) expect(frames[k]!.fseq).toBeGreaterThan(frames[k - 1]!.fseq);
      for (const f of frames) expect(f.source).toBe('muster@test-table');

      // Closing tells the client that everything is gone.
      await out.close();
      const bye = await listener.next();
      expect(bye.alive).toEqual([]);
      expect(bye.fseq).toBeGreaterThan(back.fseq);
      // Closed: publishing does nothing and does not throw.
      out.publish(scriptedState(7, 11_000, [B]));
      await listener.quiet(100);
      expect(logs).toEqual([]);
    } finally {
      await out.close();
      await listener.close();
    }
  });

  it('sends a keep-alive (alive, every set, a new fseq) at least once a second while nothing changes', async () => {
    const listener = await TuioListener.open();
    const out = startTuioOutput({ host: '127.0.0.1', port: listener.port, source: null, log: () => {} });
    try {
      await listener.next();
      out.publish(scriptedState(1, 5000, [A, B]));
      const frame = await listener.next();
      const sentAt = listener.received.at(-1)!.atMs;
      // Unchanged states do not count as traffic.
      out.publish(scriptedState(2, 5100, [A, B]));
      const keep1 = await listener.next(2500);
      const keep1At = listener.received.at(-1)!.atMs;
      const keep2 = await listener.next(2500);
      const keep2At = listener.received.at(-1)!.atMs;
      for (const [k, at, before] of [[keep1, keep1At, sentAt], [keep2, keep2At, keep1At]] as const) {
        expect(k.alive).toEqual([1, 2]);
        expect(k.sets.map((s) => s.s)).toEqual([1, 2]);
        expect(k.source).toBeNull();
        // One second after the last frame: timers never fire early; the upper bound leaves room for a
        // loaded machine (the 2-core test box runs other suites beside this one).
        expect(at - before).toBeGreaterThan(900);
        expect(at - before).toBeLessThan(2500);
      }
      expect(keep1.fseq).toBe(frame.fseq + 1);
      expect(keep2.fseq).toBe(keep1.fseq + 1);
    } finally {
      await out.close();
      await listener.close();
    }
  });

  it('resolves a host name (localhost) to the IPv4 listener TUIO clients usually open', async () => {
    const listener = await TuioListener.open();
    const out = startTuioOutput({ host: 'localhost', port: listener.port, keepAliveMs: 60_000, log: () => {} });
    try {
      const hello = await listener.next();
      expect(hello.source).toMatch(/^muster@./);
      out.publish(scriptedState(1, 0, [A]));
      expect((await listener.next()).alive).toEqual([1]);
    } finally {
      await out.close();
      await listener.close();
    }
  });

  it('keeps going when nobody listens (ICMP port unreachable), logs it once, and reaches a client that starts later', async () => {
    const port = await freeUdpPort();
    const logs: string[] = [];
    const out = startTuioOutput({ host: '127.0.0.1', port, keepAliveMs: 60_000, log: (m) => logs.push(m) });
    let listener: TuioListener | null = null;
    try {
      for (let k = 0; k < 20; k++) {
        expect(() => out.publish(scriptedState(k + 1, 1000 + k * 50, [{ ...A, xIn: k }]))).not.toThrow();
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}.*ECONNREFUSED.*nothing is listening`));

      listener = await TuioListener.open(port);
      out.publish(scriptedState(100, 5000, [{ ...A, xIn: 36 }, B]));
      const late = await listener.next();
      expect(late.alive).toEqual([1, 2]);
      expect(late.sets.find((s) => s.s === 1)?.x).toBeCloseTo(0.5, 6);
      expect(logs).toHaveLength(1);
    } finally {
      await out.close();
      await listener?.close();
    }
  });

  describe('attached to the live pipeline (demo from ground truth)', () => {
    const dir = tempDir('muster-tuio-');
    afterAll(() => dir.remove());

    it('sends the tracks of the states the pipeline publishes', async () => {
      const listener = await TuioListener.open();
      const live = await startDemo(dir.path);
      const states: LiveState[] = [live.pipeline.state()];
      const unsubscribe = live.pipeline.subscribe((e) => {
        if (e.kind === 'state') states.push(live.pipeline.state());
      });
      const out = attachTuioOutput(live.pipeline, { host: '127.0.0.1', port: listener.port, log: () => {} });
      try {
        const bundles: TuioBundle[] = [];
        const deadline = performance.now() + 20_000;
        while (performance.now() < deadline && !(bundles.filter((b) => b.alive.length > 0).length >= 5 && bundles.some((b) => b.sets.some((s) => s.X !== 0 || s.Y !== 0)))) {
          bundles.push(await listener.next(5000));
        }
        expect(bundles.filter((b) => b.alive.length > 0).length).toBeGreaterThanOrEqual(5);
        expect(bundles.some((b) => b.sets.some((s) => s.X !== 0 || s.Y !== 0)), 'some stand moves').toBe(true);

        // Every alive list is the track ids of a published state (a fresh tracker's ids only grow, so the
        // session ids are the track ids), and every set is a track of one, mapped.
        const aliveLists = new Set(states.map((s) => JSON.stringify([...s.liveTrackIds].sort((a, b) => a - b))));
        aliveLists.add('[]');
        for (const b of bundles) {
          expect(aliveLists.has(JSON.stringify(b.alive)), `alive ${JSON.stringify(b.alive)}`).toBe(true);
          for (const s of b.sets) {
            const match = states.some((st) =>
              st.tracks.some((t) => {
                if (t.trackId !== s.s || t.markerId !== s.i) return false;
                const p = toTuioPose(t.pose, st.tableState.table);
                return Math.abs(f32(Math.min(1, Math.max(0, p.x))) - s.x) < 1e-6 && Math.abs(f32(Math.min(1, Math.max(0, p.y))) - s.y) < 1e-6 && Math.abs(f32(p.a) - s.a) < 1e-6;
              }),
            );
            expect(match, `set ${JSON.stringify(s)} matches a published track`).toBe(true);
          }
        }
        for (let k = 1; k < bundles.length; k++) expect(bundles[k]!.fseq).toBeGreaterThanOrEqual(bundles[k - 1]!.fseq);
      } finally {
        unsubscribe();
        await out.close();
        await live.stop();
        await listener.close();
      }
    });
  });
});
