import net from 'node:net';
import { StartupRefusal } from './startup-refusal.js';

const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'another process is listening there',
  EACCES: 'permission denied (a port below 1024 needs privileges)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
};

/** The one-line reason a listen failed, or undefined for an error that is not about the port. */
export const listenProblem = (
  error: unknown,
  port: number,
  host: string,
  variables = 'PORT, HAWSER_BIND',
): string | undefined => {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code && REASONS[code];
  return reason
    ? `cannot listen on ${host}:${port} (${variables}): ${reason} (${code})`
    : undefined;
};

/**
 * Binds the port and lets it go before anything starts, so a port in use is refused up front
 * rather than after the service has announced itself.
 */
export const refuseUnlessPortFree = async (port: number, host: string): Promise<void> => {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => {
      reject(new StartupRefusal(listenProblem(error, port, host) ?? String(error)));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
};

/** Listens, turning a port problem met after all (another process was quicker) into a refusal. */
export const listenOrRefuse = async (
  app: { listen(port: number, host: string): Promise<unknown> },
  port: number,
  host: string,
): Promise<void> => {
  try {
    await app.listen(port, host);
  } catch (error) {
    const problem = listenProblem(error, port, host);
    throw problem ? new StartupRefusal(problem) : error;
  }
};

/** A port free on the loopback interface now (for tests and benchmarks that start services). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
