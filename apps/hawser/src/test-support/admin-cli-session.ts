import { startHawser, type HawserTestServer } from './hawser-test-server.js';
import { cliSteps, type ManilaCliTarget } from './manila-cli.js';

/** A Hawser of its own for one CLI spec, driven as an admin of one project. */
export interface AdminCliSession {
  readonly hawser: HawserTestServer;
  /** A request over HTTP as the same admin, at the session's microversion. */
  readonly http: (
    method: string,
    route: string,
    body?: unknown,
  ) => ReturnType<HawserTestServer['request']>;
  /** Where and as whom the CLI runs. */
  readonly target: ManilaCliTarget;
  /** One `manila` command; a non-zero exit fails with the CLI's requests and Hawser's answers. */
  readonly cli: ReturnType<typeof cliSteps>;
}

export const adminCliSession = async (
  manila: string,
  projectId: string,
  options: Parameters<typeof startHawser>[0] & { readonly microversion?: string } = {},
): Promise<AdminCliSession> => {
  const { microversion = '2.72', ...server } = options;
  const hawser = await startHawser(server);
  const token = `admin:${projectId}`;
  const target = { url: hawser.url, userId: 'admin', projectId, microversion };
  return {
    hawser,
    http: (method, route, body) =>
      hawser.request(method, route, body, {
        token,
        ...(options.microversion !== undefined && { version: microversion }),
      }),
    target,
    cli: cliSteps(manila, target),
  };
};
