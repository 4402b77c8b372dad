/**
 * A replay's timeline (shown only when the service is a replay: `GET /api/replay` answers): the turns as
 * segments sized by their entries, every action (card, dice, status, terrain, tag, turn, note) as a tick
 * and a line in a list, and a marker where the replay is now (from the published `frameSeq`, the log
 * index). With the operator token, a click on a turn or an action seeks there and a button pauses or
 * plays (`POST /api/replay`): the record itself is never changed.
 */
import type { GameLogEntry } from '@muster/protocol';
import type { LiveStore } from '../state/liveStore.ts';
import { logEntryText } from '../ui/logEntryText.ts';
import { positionOfIndex, turnAtPosition, type TimelineTurn } from '../ui/timelinePosition.ts';
import { h } from './bootstrap.ts';

interface ReplayInfo {
  readonly position: number;
  readonly length: number;
  readonly playing: boolean;
  readonly speed: number;
  readonly turns: readonly TimelineTurn[];
  readonly actions: readonly { readonly position: number; readonly entry: GameLogEntry }[];
}

export async function replayTimelineBar(parent: HTMLElement, store: LiveStore, options: { readonly token?: string | undefined; readonly onMessage?: (text: string, isError: boolean) => void } = {}): Promise<HTMLElement | null> {
  let info: ReplayInfo;
  try {
    const res = await fetch('/api/replay', { cache: 'no-store' });
    if (!res.ok) return null; // a live game
    info = (await res.json()) as ReplayInfo;
  } catch {
    return null;
  }
  const length = Math.max(1, info.length);
  const pct = (position: number) => `${(100 * Math.max(0, Math.min(length, position))) / length}%`;
  const canSeek = Boolean(options.token);
  const nowText = h('span', { className: 'timeline-now-text' });
  const track = h('div', { className: 'timeline-track' });
  const marker = h('div', { className: 'timeline-now' });
  const list = h('ol', { className: 'timeline-actions' });
  const playButton = h('button', { type: 'button' });

  const control = async (body: unknown): Promise<void> => {
    const res = await fetch('/api/replay', { method: 'POST', headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await res.json().catch(() => ({}))) as { playing?: boolean; message?: string };
    if (!res.ok) options.onMessage?.(answer.message ?? `replay control failed (${res.status})`, true);
    else setPlaying(answer.playing === true);
  };
  const setPlaying = (playing: boolean) => {
    playButton.textContent = playing ? '⏸ Pause' : '▶ Play';
    playButton.title = playing ? 'Pause the replay' : 'Play on from here';
    playButton.dataset.playing = String(playing);
  };
  setPlaying(info.playing);
  playButton.addEventListener('click', () => void control(playButton.dataset.playing === 'true' ? { action: 'pause' } : { action: 'play' }));

  for (const t of info.turns) {
    const seg = h('button', { type: 'button', className: 'timeline-turn', title: `Turn ${t.turn}: ${t.entries} entries from ${new Date(t.timeMs).toLocaleTimeString()}${canSeek ? ' (click to go there)' : ''}` }, `T${t.turn}`);
    seg.dataset.turn = String(t.turn);
    seg.dataset.position = String(t.position);
    seg.style.left = pct(t.position - 1);
    seg.style.width = pct(t.entries);
    seg.disabled = !canSeek;
    seg.addEventListener('click', () => void control({ action: 'seek', turn: t.turn }));
    track.append(seg);
  }
  for (const a of info.actions) {
    const tick = h('div', { className: `timeline-tick kind-${a.entry.kind}` });
    tick.style.left = pct(a.position - 0.5);
    track.append(tick);
  }
  track.append(marker);
  const items = info.actions.map((a) => {
    const li = h('li', { title: canSeek ? 'Click to show the game just after this' : '' }, `T${a.entry.turn} · ${new Date(a.entry.timeMs).toLocaleTimeString()} · ${logEntryText(a.entry, store.snapshot.state)}`);
    li.dataset.position = String(a.position);
    li.dataset.kind = a.entry.kind;
    if (canSeek) li.addEventListener('click', () => void control({ action: 'seek', position: a.position }));
    return li;
  });
  list.append(...items);

  const bar = h('section', { className: 'timeline', 'aria-label': 'Replay timeline' } as never, h('div', { className: 'timeline-head' }, h('strong', {}, 'Replay'), nowText, canSeek ? playButton : null), track, list);
  bar.id = 'replay-timeline';
  // The map fits the table below the bar (views/liveTableView.ts, RESERVING_SELECTOR): it never hides it.
  bar.dataset.fitReserve = 'top';
  parent.append(bar);

  let shown = -2;
  const update = () => {
    const s = store.snapshot.state;
    if (!s) return;
    const position = positionOfIndex(info.turns, s.frameSeq);
    if (position === shown) return;
    shown = position;
    bar.dataset.position = String(position);
    marker.style.left = pct(position);
    const turn = turnAtPosition(info.turns, position);
    nowText.textContent = `entry ${position} of ${info.length}${turn ? ` · turn ${turn.turn}` : ''}`;
    for (const seg of track.querySelectorAll<HTMLElement>('.timeline-turn')) seg.classList.toggle('current', turn !== null && seg.dataset.turn === String(turn.turn));
    let last: HTMLElement | null = null;
    for (const li of items) {
      const past = Number(li.dataset.position) <= position;
      li.classList.toggle('past', past);
      li.classList.remove('current');
      if (past) last = li;
    }
    if (last) {
      last.classList.add('current');
      last.scrollIntoView?.({ block: 'nearest' });
    }
  };
  store.subscribe(update);
  update();
  return bar;
}
