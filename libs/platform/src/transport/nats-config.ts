/**
 * NATS_URL: the NATS servers that carry traffic between Hawser's processes (comma-separated
 * for a cluster). Unset means in-process, the embedded default; the separate scheduler and
 * share-node processes need it.
 */
export const natsServers = (env: NodeJS.ProcessEnv = process.env): string[] | undefined => {
  const servers = (env.NATS_URL ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  return servers.length > 0 ? servers : undefined;
};

/** NATS_URL for a process that cannot run without it. */
export const requiredNatsServers = (
  role: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] => {
  const servers = natsServers(env);
  if (!servers) {
    throw new Error(`the ${role} runs as a separate process and needs NATS_URL (nats://host:4222)`);
  }
  return servers;
};
