import { createRequire } from 'node:module';
import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type pretty from 'pino-pretty';
import { logContextFields } from './log-context.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const isLogLevel = (value: string): value is LogLevel =>
  (LOG_LEVELS as readonly string[]).includes(value);

/** `HAWSER_LOG_LEVEL` (default `info`): the one place the level is read. */
export const logLevelFrom = (env: NodeJS.ProcessEnv = process.env): LogLevel => {
  const value = env.HAWSER_LOG_LEVEL ?? 'info';
  if (!isLogLevel(value)) {
    throw new Error(`HAWSER_LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return value;
};

export interface HawserLoggerOptions {
  /** Names the process in every line (`hawser`, `api`, `scheduler`, `share-node`). */
  readonly service: string;
  readonly level?: LogLevel;
  /** Where lines go; standard output by default. */
  readonly destination?: DestinationStream;
}

/** pino-pretty, loaded only on a terminal: a redirected start does not pay for it. */
const prettyPrinter = (): typeof pretty =>
  createRequire(import.meta.url)('pino-pretty') as typeof pretty;

/**
 * One JSON object per line on standard output, or, when standard output is a terminal, the
 * same lines made readable by pino-pretty (coloured there only, never when redirected).
 */
export const createHawserLogger = (options: HawserLoggerOptions): Logger => {
  const destination =
    options.destination ??
    (process.stdout.isTTY
      ? prettyPrinter()({
          colorize: true,
          sync: true,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss.l',
          messageFormat: '[{context}] {msg}',
          ignore: 'pid,service,context',
        })
      : pino.destination({ fd: 1, sync: true }));
  return pino(
    {
      level: options.level ?? logLevelFrom(),
      base: { service: options.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
};

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !(value instanceof Error);

/**
 * Nest's LoggerService over pino: `new Logger('scheduler').log('...')` anywhere in Hawser becomes
 * one line with `context: "scheduler"` and the current request's ids. An object message
 * (`{ msg, ...fields }`) becomes fields of the line.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest passes the logger's context last, and an error's stack before it.
    const last = params.at(-1);
    const context = typeof last === 'string' ? last : undefined;
    const stack = params.length >= 2 && typeof params[0] === 'string' ? params[0] : undefined;
    const fields: Fields = {
      ...(context !== undefined && { context }),
      ...logContextFields(),
      ...(stack !== undefined && { stack }),
    };
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (isFields(message)) {
      const { msg, ...rest } = message;
      this.pino[level]({ ...fields, ...rest }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.pino[level](fields, String(message));
    }
  }
}

/** The Nest logger of a Hawser process, from `HAWSER_LOG_LEVEL` and standard output. */
export const hawserNestLogger = (service: string): PinoNestLogger =>
  new PinoNestLogger(createHawserLogger({ service }));
