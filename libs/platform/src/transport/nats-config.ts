import { ConfigurationError } from '../config/configuration-error.js';
import type { HawserConfig } from '../config/hawser-config.js';

/** NATS_URL for a process that cannot run without it (the scheduler and the share nodes). */
export const requiredNatsServers = (role: string, config: HawserConfig): string[] => {
  if (!config.natsServers) {
    throw new ConfigurationError(
      `environment variable NATS_URL: expected NATS servers (nats://host:4222), as the ${role} runs as a separate process, given nothing`,
    );
  }
  return [...config.natsServers];
};
