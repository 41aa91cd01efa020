import net from 'node:net';
import type { AddressInfo, Server } from 'node:net';

/**
 * The raw answer of a listening server to a raw request (its request line and any headers,
 * then `body` with its length), the connection closed after it, without the Date header.
 */
export const rawAnswer = (server: Server, request: string, body = ''): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, ''),
      ),
    );
    socket.on('error', reject);
    const length = body === '' ? '' : `\r\nContent-Length: ${Buffer.byteLength(body)}`;
    socket.write(`${request}\r\nHost: localhost\r\nConnection: close${length}\r\n\r\n${body}`);
  });
