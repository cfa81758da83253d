/**
 * At most so many connections on one listener, without letting a neighbour fill them. Node's own
 * `maxConnections` refuses every connection past the cap, so a local program holding the cap's
 * worth of connections that send nothing shuts the token holder out until the header timeout
 * closes them, and again as soon as it opens new ones. Here a connection past the cap closes the
 * oldest one that has no request being answered (silent, part-way through its headers, or idle
 * between requests) and is refused itself only when every other one is answering a request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export class ConnectionCap {
  /** The open connections, oldest first, each with the number of its requests not yet answered. */
  private readonly open = new Map<Socket, number>();

  constructor(private readonly max: number) {}

  /** For the listener's 'connection' event. */
  admit(socket: Socket): void {
    this.open.set(socket, 0);
    socket.once('close', () => this.open.delete(socket));
    if (this.open.size <= this.max) return;
    let shed = socket;
    for (const [other, answering] of this.open) {
      if (answering === 0 && other !== socket) {
        shed = other;
        break;
      }
    }
    // Forgotten at once, not at its 'close', so that a burst of new connections sheds one each.
    this.open.delete(shed);
    shed.destroy();
  }

  /** For each request Node hands over: its connection is not closed for room until the answer is done. */
  answering(request: IncomingMessage, response: ServerResponse): void {
    const socket = request.socket;
    const count = this.open.get(socket);
    if (count === undefined) return;
    this.open.set(socket, count + 1);
    response.once('close', () => {
      const now = this.open.get(socket);
      if (now !== undefined) this.open.set(socket, now - 1);
    });
  }
}
