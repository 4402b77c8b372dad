/**
 * `--camera phone`: frames pushed by the phone page (`/phone.html`) over a WebSocket on `/camera`, taken
 * only with the operator token (`?token=`): whoever sends frames decides what the table shows, so a
 * viewer may not.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FrameSource } from '@muster/vision';
import { tokenMatches } from '../http/operatorToken.ts';
import { WebSocketFrameSource } from '../http/webSocketFrameSource.ts';
import type { LiveServerOptions } from './liveServer.ts';

export const PHONE_CAMERA = 'phone';
export const PHONE_CAMERA_PATH = '/camera';

/** Takes upgrades on the phone path, only with the operator token. */
function phoneUpgrade(source: WebSocketFrameSource, operatorToken: string) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PHONE_CAMERA_PATH) return false;
    if (!tokenMatches(url.searchParams.get('token') ?? '', operatorToken)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return true;
    }
    return source.handleUpgrade(req, socket, head);
  };
}

/** The server option that routes the phone's WebSocket to its frame source (none for other cameras). */
export function phoneUpgradeOption(source: FrameSource): Pick<LiveServerOptions, 'otherUpgrade'> {
  const phone = source instanceof WebSocketFrameSource ? source : null;
  return phone ? { otherUpgrade: (token: string) => phoneUpgrade(phone, token) } : {};
}
