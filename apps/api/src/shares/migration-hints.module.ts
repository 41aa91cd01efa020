import { Global, Module } from '@nestjs/common';
import { CommandHandler, SHARE_HINTS } from '#hawser/application';
import { AffinityHints, shareLoaderOf } from '#hawser/process-managers';

/**
 * The migration use case's view of scheduler hints: `AffinityHints`, the resolver the scheduler
 * uses, reading the named shares' placements from the log.
 */
@Global()
@Module({
  providers: [
    {
      provide: SHARE_HINTS,
      useFactory: (commands: CommandHandler) => new AffinityHints(shareLoaderOf(commands)),
      inject: [CommandHandler],
    },
  ],
  exports: [SHARE_HINTS],
})
export class MigrationHintsModule {}
