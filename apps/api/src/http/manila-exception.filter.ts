import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import { DomainError, type DomainErrorKind } from '#hawser/domain';
import {
  passesByItself,
  storageFailureOf,
  WrongExpectedRevisionError,
  type StorageFailureKind,
} from '#hawser/eventstore';
import { graphqlErrorOf } from '../graphql/graphql-error.js';
import { faultBody, ManilaHttpError } from './manila-error.js';
import { unsupportedResourceMessage } from './unsupported-resources.js';

const STATUS_OF: Readonly<Record<DomainErrorKind, number>> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  over_limit: 413,
};

/** What a caller reads when the service could not record its request. */
const STORAGE_FAILURE_MESSAGES: Readonly<Record<StorageFailureKind, string>> = {
  full: 'The service is out of disk space: the request could not be recorded and was not carried out. Please try again later.',
  unwritable:
    'The service cannot write to its data store (read-only or not permitted): the request could not be recorded and was not carried out.',
  io: 'The service failed to write to its data store: the request could not be recorded and was not carried out. Please try again later.',
  busy: "The service's data store is busy with other writes: the request could not be recorded and was not carried out. Please try again.",
};

/** Seconds a caller may wait before retrying a failure that passes by itself (a busy store's lock). */
const PASSING_FAILURE_RETRY_AFTER_S = '1';

/**
 * Every error leaves as Manila's fault body; only a real fault is a 500, and it is logged. In a
 * GraphQL resolver the same status and message leave as a GraphQL error instead.
 */
@Catch()
export class ManilaExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType<string>() === 'graphql') throw this.graphqlError(error);
    const [status, described] = this.described(error);
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const routeMissed = status === 404 && !(error instanceof ManilaHttpError);
    const message =
      (routeMissed && unsupportedResourceMessage(http.getRequest<Request>().path)) || described;
    if (status === 413) res.setHeader('Retry-After', '0');
    if (passesByItself(storageFailureOf(error))) {
      res.setHeader('Retry-After', PASSING_FAILURE_RETRY_AFTER_S);
    }
    res.status(status).json(faultBody(status, message));
  }

  private graphqlError(error: unknown): GraphQLError {
    if (error instanceof GraphQLError) return error;
    return graphqlErrorOf(...this.described(error));
  }

  /** The status and message, logging a real fault (a storage failure in one line). */
  private described(error: unknown): [number, string] {
    const storageFailure = storageFailureOf(error);
    if (storageFailure) {
      this.logger.warn(`request refused, storage failure: ${String(error)}`);
      return [503, STORAGE_FAILURE_MESSAGES[storageFailure]];
    }
    const [status, message] = this.describe(error);
    if (status >= 500) this.logger.error(error instanceof Error ? error.stack : String(error));
    return [status, message];
  }

  private describe(error: unknown): [number, string] {
    if (error instanceof ManilaHttpError) return [error.status, error.message];
    if (error instanceof DomainError) return [STATUS_OF[error.kind], error.message];
    if (error instanceof WrongExpectedRevisionError) {
      return [409, 'The resource was changed by another request; retry with its current state.'];
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      // An unknown route or method: Manila answers 404 with an empty explanation.
      if (status === 404) return [404, 'The resource could not be found.'];
      const response = error.getResponse();
      const message =
        typeof response === 'object' && response !== null && 'message' in response
          ? ([] as unknown[]).concat((response as { message: unknown }).message).join('; ')
          : error.message;
      return [status, message];
    }
    return [
      500,
      'The server has either erred or is incapable of performing the requested operation.',
    ];
  }
}
