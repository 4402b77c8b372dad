/**
 * `/phone.html?token=…`: a phone held (or clamped) over the table as the camera. The service must run
 * with `--camera phone`. Each frame is drawn to a canvas, encoded as JPEG and sent over the WebSocket
 * `/camera`; the next one goes only after the service acknowledges the last, so a slow Wi-Fi link never
 * builds a backlog (latency stays at one frame). Browsers allow the camera only on a secure origin
 * (https, or http://localhost), which the README explains how to arrange.
 */
import '../styles.css';
import { takeOperatorToken } from './operatorToken.ts';

const params = new URLSearchParams(location.search);
const token = takeOperatorToken() ?? '';
/** Longest side of the sent frames, px; the table needs detail, Wi-Fi needs small messages. */
const maxSidePx = Number(params.get('max') ?? 1920);
const jpegQuality = 0.85;

document.body.innerHTML = `
  <header class="topbar"><h1>Muster · phone camera</h1><span class="spacer"></span><span class="status" id="status">starting…</span></header>
  <main class="stage"><video id="preview" playsinline muted style="width:100%;height:100%;object-fit:contain;background:#000"></video></main>`;
const statusEl = document.getElementById('status')!;
const video = document.getElementById('preview') as HTMLVideoElement;
const canvas = document.createElement('canvas');
const setStatus = (text: string): void => {
  statusEl.textContent = text;
};

async function openCamera(): Promise<void> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new Error('this browser allows the camera only on https or localhost');
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment', width: { ideal: 3840 }, height: { ideal: 2160 } },
    audio: false,
  });
  video.srcObject = stream;
  await video.play();
}

function encodeFrame(): Promise<Blob | null> {
  const scale = Math.min(1, maxSidePx / Math.max(video.videoWidth, video.videoHeight));
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', jpegQuality));
}

function connect(): void {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/camera?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  let sent = 0;
  const startedMs = performance.now();
  const sendNext = async (): Promise<void> => {
    const blob = await encodeFrame();
    if (blob && ws.readyState === WebSocket.OPEN) ws.send(await blob.arrayBuffer());
  };
  ws.onopen = () => {
    setStatus('connected');
    void sendNext();
  };
  ws.onmessage = (event) => {
    const reply = JSON.parse(String(event.data)) as { type: string; seq?: number; message?: string };
    if (reply.type === 'ack') {
      sent++;
      const fps = (sent * 1000) / (performance.now() - startedMs);
      setStatus(`sending ${canvas.width}×${canvas.height} · ${fps.toFixed(1)} frames/s`);
    } else {
      setStatus(`service: ${reply.message ?? reply.type}`);
    }
    void sendNext();
  };
  ws.onclose = (event) => {
    setStatus(event.code === 1006 ? 'refused or lost (is the token right, and the service run with --camera phone?); retrying…' : `closed (${event.reason || event.code}); retrying…`);
    setTimeout(connect, 2000);
  };
}

openCamera()
  .then(connect)
  .catch((err: unknown) => setStatus(`camera: ${(err as Error).message}`));
