import { createHawserLogger, logLevelFrom, PinoNestLogger } from './hawser-logger.js';
import { withLogContext } from './log-context.js';

/** A logger writing to memory, and the JSON lines it wrote. */
const capture = (level: 'info' | 'debug' = 'info') => {
  const written: string[] = [];
  const logger = new PinoNestLogger(
    createHawserLogger({ service: 'test', level, destination: { write: (l) => written.push(l) } }),
  );
  return { logger, lines: () => written.map((l) => JSON.parse(l) as Record<string, unknown>) };
};

describe('the Nest logger over pino', () => {
  it('given a message with its context, then one JSON line names the level, service, context and message', () => {
    const { logger, lines } = capture();

    logger.log('prepared the pools', 'scheduler');

    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        service: 'test',
        context: 'scheduler',
        msg: 'prepared the pools',
      }),
    ]);
    expect(typeof lines()[0]?.time).toBe('string');
  });

  it('given an object message, then its fields become fields of the line and msg its message', () => {
    const { logger, lines } = capture();

    logger.warn({ msg: 'driver create_share: error', backend: 'h@b', durationMs: 3 }, 'driver');

    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'warn',
        context: 'driver',
        msg: 'driver create_share: error',
        backend: 'h@b',
        durationMs: 3,
      }),
    ]);
  });

  it('given work within a request, then its lines carry the request and correlation ids', () => {
    const { logger, lines } = capture();

    withLogContext({ requestId: 'req-1', correlationId: 'req-1', causationId: 'e-1' }, () =>
      logger.log('inside', 'http'),
    );
    logger.log('outside', 'http');

    expect(lines().map((l) => [l.msg, l.requestId, l.causationId])).toEqual([
      ['inside', 'req-1', 'e-1'],
      ['outside', undefined, undefined],
    ]);
  });

  it("given Nest's error with a stack, then the stack is a field of the error line", () => {
    const { logger, lines } = capture();

    logger.error('boom', 'Error: boom\n    at here', 'http');

    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'boom',
        context: 'http',
        stack: 'Error: boom\n    at here',
      }),
    ]);
  });

  it('given the info level, then debug lines are left out', () => {
    const { logger, lines } = capture('info');

    logger.debug('periodic', 'driver');
    logger.log('kept', 'driver');

    expect(lines().map((l) => l.msg)).toEqual(['kept']);
  });

  it('given HAWSER_LOG_LEVEL, then a known level is taken and anything else refused naming the variable', () => {
    expect(logLevelFrom({})).toBe('info');
    expect(logLevelFrom({ HAWSER_LOG_LEVEL: 'debug' })).toBe('debug');
    expect(() => logLevelFrom({ HAWSER_LOG_LEVEL: 'verbose' })).toThrow(
      'HAWSER_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
  });
});
