import { Inject, Injectable } from '@nestjs/common';
import {
  Command,
  CommandHandler,
  Query,
  QueryHandler,
  type ICommandHandler,
  type IQueryHandler,
} from '@nestjs/cqrs';
import { notFoundError } from '#hawser/api-contracts';
import { userMessageDecider, userMessageStream } from '#hawser/domain';
import { MESSAGES, type MessageDocument } from '#hawser/projections';
import {
  DOCUMENT_STORE,
  READ_YOUR_WRITES,
  type DocumentStore,
  type ReadYourWrites,
} from '#hawser/read-models';
import { CommandHandler as Commands } from '../command-handler.js';
import type { Caller, Reader, Requester } from '../requester.js';

/** A message of the reader's project (any for admins) that has not expired; else 404. */
export class ShowMessage extends Query<MessageDocument> {
  constructor(
    readonly messageId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** DELETE /messages/{id}: an event on the message's own stream, so the audit shows who did it. */
export class DeleteMessage extends Command<void> {
  constructor(
    readonly messageId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

@Injectable()
export class MessageReads {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  async find(id: string, caller: Caller): Promise<MessageDocument> {
    const message = await this.documents.get<MessageDocument>(MESSAGES, id);
    const visible =
      message &&
      (caller.isAdmin || message.project_id === caller.projectId) &&
      message.expires_at > new Date().toISOString();
    if (!visible) throw notFoundError(`Message ${id} could not be found.`);
    return message;
  }
}

@QueryHandler(ShowMessage)
export class ShowMessageHandler implements IQueryHandler<ShowMessage, MessageDocument> {
  constructor(private readonly messages: MessageReads) {}

  execute({ messageId, reader }: ShowMessage): Promise<MessageDocument> {
    return this.messages.find(messageId, reader.caller);
  }
}

@CommandHandler(DeleteMessage)
export class DeleteMessageHandler implements ICommandHandler<DeleteMessage, void> {
  constructor(
    private readonly messages: MessageReads,
    private readonly commands: Commands,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ messageId, requester }: DeleteMessage): Promise<void> {
    const message = await this.messages.find(messageId, requester.caller);
    const result = await this.commands.handle(
      userMessageDecider,
      userMessageStream(message.id),
      {
        type: 'DeleteUserMessage',
        messageId: message.id,
        projectId: message.project_id,
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
