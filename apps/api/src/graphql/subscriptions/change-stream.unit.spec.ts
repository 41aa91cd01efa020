import { ChangeStream } from './change-stream.js';

describe('ChangeStream', () => {
  it('given pushes before and while a client waits, then it hands them out in order', async () => {
    const stream = new ChangeStream<number>(() => {});
    stream.push(1);
    stream.push(2);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    expect(await stream.next()).toEqual({ value: 2, done: false });
    const waiting = stream.next();
    stream.push(3);
    expect(await waiting).toEqual({ value: 3, done: false });
  });

  it('given a client that leaves while waiting, then the wait ends, the pushes stop once and later ones are dropped', async () => {
    let closed = 0;
    const stream = new ChangeStream<number>(() => (closed += 1));
    const waiting = stream.next();
    await stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    await stream.return();
    expect(closed).toBe(1);
    stream.push(4);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
