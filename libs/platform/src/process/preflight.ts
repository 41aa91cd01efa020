import { Command } from 'commander';
import { refuseUnlessDataDirectoryWritable } from '../config/data-directory.js';
import { environmentHelp } from '../config/environment.help.js';
import type { HawserConfig } from '../config/hawser-config.js';
import { refuseUnlessPortFree } from './port-check.js';
import { refuseUnlessStoresReachable } from './store-reachability.js';

/**
 * A service's command line: no options of its own (the environment configures it), `--help`
 * lists that environment, and an unknown argument is refused.
 */
export const parseServiceArguments = (name: string, description: string): void => {
  new Command(name)
    .description(description)
    .addHelpText('after', environmentHelp())
    .parse(process.argv);
};

/**
 * What a process checks before it builds anything, each refused in one line: the data directory
 * can be written, the HTTP port is free (for the processes that listen), the stores answer.
 */
export const preflight = async (
  config: HawserConfig,
  options: { readonly listens: boolean },
): Promise<void> => {
  refuseUnlessDataDirectoryWritable(config.dataDir);
  if (options.listens) await refuseUnlessPortFree(config.port, config.bind);
  await refuseUnlessStoresReachable(config);
};
