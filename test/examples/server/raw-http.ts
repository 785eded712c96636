import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';

/** One HTTP answer as it came over the wire: its status, headers (names in lower case) and body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A connection to a server for bytes written by hand (requests Node's parser refuses included), and everything it answers. */
export interface RawConnection {
  write(bytes: string | Buffer): void;
  /** Resolves once the server has closed the connection, with the answers it sent, in order. */
  readonly closed: Promise<RawAnswer[]>;
  /** The answers complete so far. */
  answers(): RawAnswer[];
  readonly socket: Socket;
}

/** Opens a connection to `127.0.0.1:port`, writing `bytes` first when given. */
export function rawConnection(port: number, bytes?: string | Buffer): RawConnection {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A reset after the server's answer (it closed while bytes of ours were unread) is still a close.
  socket.on('error', () => {});
  const closed = new Promise<RawAnswer[]>((resolve) => socket.on('close', () => resolve(parseAnswers(Buffer.concat(chunks)))));
  if (bytes !== undefined) socket.write(bytes);
  return { write: (more) => socket.write(more), closed, answers: () => parseAnswers(Buffer.concat(chunks)), socket };
}

/**
 * Sends `bytes` on a connection of its own and resolves with the answers once the server
 * has closed it (after a request it refuses, or one with `Connection: close`). Not
 * half-closed: Node drops the requests of a connection whose client has ended it.
 */
export function exchange(port: number, bytes: string | Buffer): Promise<RawAnswer[]> {
  return rawConnection(port, bytes).closed;
}

/** The complete HTTP/1.1 answers in `data` (bodies by content-length or chunked), in order; an incomplete last one is left out. */
export function parseAnswers(data: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return answers;
    const [statusLine, ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyStart = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const sizeEnd = data.indexOf('\r\n', bodyStart);
        if (sizeEnd < 0) return answers;
        const size = parseInt(data.subarray(bodyStart, sizeEnd).toString('latin1'), 16);
        if (data.length < sizeEnd + 2 + size + 2) return answers;
        parts.push(data.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        bodyStart = sizeEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < bodyStart + length) return answers;
      body = data.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    }
    answers.push({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]), headers, body: body.toString('utf8') });
    at = bodyStart;
  }
}

/** Checks that an answer is an RFC 9457 problem of `status` (media type, envelope) and returns its body. */
export function expectProblem(answer: RawAnswer | undefined, status: number): Record<string, unknown> {
  expect(answer, 'an answer').toBeDefined();
  expect(answer!.status).toBe(status);
  expect(answer!.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(answer!.body) as Record<string, unknown>;
  expect(body).toMatchObject({ type: 'about:blank', status });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body;
}
