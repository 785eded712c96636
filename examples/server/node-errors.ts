import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_LIMITS, PROBLEM_CONTENT_TYPE } from 'qsfilter';
import { problem, type Problem } from './http';

/**
 * The answers Node's HTTP server gives by itself, before Fastify sees a request, made
 * problems like every other error answer (SPEC §14.4): a request its parser refuses (400,
 * or 431 for a request line and headers over its limit, 413 for chunk extensions over
 * theirs), one that does not arrive in full in time (408), an `Expect` it cannot meet
 * (417), and `CONNECT` (501: this is no proxy). Node would answer these with an empty
 * body (or close the connection, for `CONNECT`), and Fastify's own `clientErrorHandler`
 * with `application/json`. `clientErrorHandler` is Fastify's option of that name;
 * `attach` adds the rest to the server once Fastify has made it, and `closing` is for
 * the server's preClose hook.
 *
 * A parser error in a request sent behind another on the same connection (pipelined),
 * whose answer is still in flight, is answered after that answer, so that answers keep
 * the order of their requests; an error in the body of the request being answered is
 * answered at once, as Node would (unless that answer has begun: then the connection is
 * closed).
 *
 * A connection that sends nothing at all is owed no answer, and Node would keep it for
 * ever: its request timeout starts with a request's first byte, and `close()` leaves such
 * a connection open (and stops looking at the others' timeouts), so one client that
 * connects and waits would hold a stopping server open. Such a connection is closed
 * after the request timeout, or at once when the server stops.
 */
export function nodeErrorAnswers(requestTimeoutMs: number): {
  clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void;
  attach(server: Server): void;
  closing(): void;
} {
  /** The request each connection is answering, and its answer, until the answer is done. */
  const inFlight = new WeakMap<Duplex, { readonly request: IncomingMessage; readonly response: ServerResponse }>();
  /** The connections that have not sent a byte yet (within the request timeout). */
  const silent = new Set<Socket>();

  return {
    clientErrorHandler(error, socket) {
      // A connection the client reset or closed: there is no one to answer. One that sent
      // nothing and timed out (Node 24 times such a connection out by itself, Node 22 does
      // not): there is no request to answer.
      const silentTimeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Socket).bytesRead === 0;
      if (error.code === 'ECONNRESET' || !socket.writable || silentTimeout) {
        socket.destroy();
        return;
      }
      const answer = () => (socket.writable ? endWith(socket, clientProblem(error, requestTimeoutMs)) : socket.destroy());
      const current = inFlight.get(socket);
      if (current === undefined) answer();
      else if (current.request.complete) current.response.once('close', answer);
      else if (!current.response.headersSent) answer();
      else socket.destroy();
    },

    attach(server) {
      server.on('connection', (socket: Socket) => {
        silent.add(socket);
        const forget = () => {
          clearTimeout(timer);
          silent.delete(socket);
        };
        const timer = setTimeout(() => {
          forget();
          if (socket.bytesRead === 0) socket.destroy();
        }, requestTimeoutMs);
        timer.unref();
        socket.once('close', forget);
      });
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const socket = request.socket;
        const current = { request, response };
        inFlight.set(socket, current);
        response.once('close', () => {
          if (inFlight.get(socket) === current) inFlight.delete(socket);
        });
      });
      server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
        const body = problem(417, `This server meets no expectation but "100-continue", not ${JSON.stringify(request.headers.expect)}: send the request without that Expect header.`);
        // The connection closes: a body the client may have sent anyway is never read.
        response.writeHead(417, { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, connection: 'close' }).end(JSON.stringify(body));
      });
      server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
        endWith(socket, problem(501, 'This server is not a proxy: it takes no CONNECT request.'));
      });
    },

    closing() {
      for (const socket of silent) if (socket.bytesRead === 0) socket.destroy();
    },
  };
}

/** The problem that answers an error of Node's HTTP parser, or a request that did not arrive in time. */
function clientProblem(error: NodeJS.ErrnoException & { reason?: string }, requestTimeoutMs: number): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        431,
        `The request line and headers come to more than ${maxHeaderSize} bytes, the most this server reads; a filter query is at most ${DEFAULT_LIMITS.maxQueryLength} characters.`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problem(413, 'The chunk extensions of the request body are longer than this server reads.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(408, `The request did not arrive in full within ${requestTimeoutMs} ms.`);
    default:
      // llhttp's reason ("Invalid header token", "Invalid HTTP version"…): its own words, never the request's text.
      return problem(400, `The request is not valid HTTP/1.1: ${error.reason ?? error.message}.`);
  }
}

/** Writes `body` as a whole HTTP answer straight to the connection, and closes it: after a parser error the connection cannot carry another request. */
function endWith(socket: Duplex, body: Problem): void {
  const json = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    `content-length: ${Buffer.byteLength(json)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${json}`, () => socket.destroy());
}
