import 'reflect-metadata';
import { ManilaHttpError } from '../http/manila-error.js';
import { negotiateMicroversion } from '../http/microversion.js';
import type { RequestContext } from '../http/request-context.js';
import { chooseAction, manilaActionsOf } from './manila-actions.js';
import { ManilaAction, Policy, Until } from './route-policy.decorators.js';

class ExampleActions {
  @ManilaAction('reset_status')
  @Policy('share:reset_status')
  resetStatus() {}

  @ManilaAction('access_list')
  @Until('2.44')
  @Policy('share:access_get_all')
  accessList() {}

  notAnAction() {}
}

const at = (version: string): RequestContext => ({
  requestId: 'req-1',
  baseUrl: 'http://localhost',
  urlProjectId: undefined,
  microversion: negotiateMicroversion(version, undefined),
  auth: undefined,
  policy: undefined,
  action: undefined,
  resource: undefined,
});

const refusal = (run: () => unknown): { status: number; message: string } | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof ManilaHttpError)) throw error;
    return { status: error.status, message: error.message };
  }
};

describe('Manila actions declared on handler methods', () => {
  it('lists each @ManilaAction method with its rule and range, and nothing else', () => {
    expect(manilaActionsOf(ExampleActions)).toEqual([
      {
        names: ['reset_status'],
        method: 'resetStatus',
        since: undefined,
        until: undefined,
        policy: { rule: 'share:reset_status' },
      },
      {
        names: ['access_list'],
        method: 'accessList',
        since: undefined,
        until: '2.44',
        policy: { rule: 'share:access_get_all' },
      },
    ]);
  });

  it("picks the method by the body's action key, with its argument", () => {
    const chosen = chooseAction(ExampleActions, { reset_status: { status: 'error' } }, at('2.7'));
    expect(chosen.handler.method).toBe('resetStatus');
    expect(chosen.argument).toEqual({ status: 'error' });
  });

  it('reads the os- names of microversions before 2.7, and only there', () => {
    expect(chooseAction(ExampleActions, { 'os-reset_status': {} }, at('2.6')).handler.method).toBe(
      'resetStatus',
    );
    expect(
      refusal(() => chooseAction(ExampleActions, { 'os-reset_status': {} }, at('2.7'))),
    ).toEqual({ status: 400, message: 'There is no such action: os-reset_status' });
  });

  it('answers 404 for an action outside its microversions, 400 for an unknown one or a body of two', () => {
    expect(chooseAction(ExampleActions, { access_list: null }, at('2.44')).handler.method).toBe(
      'accessList',
    );
    expect(refusal(() => chooseAction(ExampleActions, { access_list: null }, at('2.45')))).toEqual({
      status: 404,
      message: 'API version 2.45 is not supported on this method.',
    });
    expect(refusal(() => chooseAction(ExampleActions, { notAnAction: null }, at('2.7')))).toEqual({
      status: 400,
      message: 'There is no such action: notAnAction',
    });
    expect(
      refusal(() =>
        chooseAction(ExampleActions, { reset_status: {}, access_list: null }, at('2.7')),
      ),
    ).toMatchObject({ status: 400 });
  });
});
