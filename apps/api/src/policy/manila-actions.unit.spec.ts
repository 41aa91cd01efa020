import 'reflect-metadata';
import { ManilaHttpError } from '../http/manila-error.js';
import { negotiateMicroversion } from '../http/microversion.js';
import type { RequestContext } from '../http/request-context.js';
import { chooseAction, manilaActionsOf } from './manila-actions.js';
import { ManilaAction, Policy, Since, Until } from './route-policy.decorators.js';

class ExampleActions {
  @ManilaAction('reset_status', { osNameBefore27: true })
  @Policy('share:reset_status')
  resetStatus() {}

  @ManilaAction('unmanage')
  @Since('2.7')
  @Policy('share:unmanage')
  unmanage() {}

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
        name: 'reset_status',
        osNameBefore27: true,
        method: 'resetStatus',
        since: undefined,
        until: undefined,
        policy: { rule: 'share:reset_status' },
      },
      {
        name: 'unmanage',
        osNameBefore27: false,
        method: 'unmanage',
        since: '2.7',
        until: undefined,
        policy: { rule: 'share:unmanage' },
      },
      {
        name: 'access_list',
        osNameBefore27: false,
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

  it('given an action named os- before 2.7, then each name is read in its own versions only, as Manila routes them', () => {
    expect(chooseAction(ExampleActions, { 'os-reset_status': {} }, at('2.6')).handler.method).toBe(
      'resetStatus',
    );
    expect(chooseAction(ExampleActions, { reset_status: {} }, at('2.7')).handler.method).toBe(
      'resetStatus',
    );
    expect(
      refusal(() => chooseAction(ExampleActions, { 'os-reset_status': {} }, at('2.7'))),
    ).toEqual({ status: 404, message: 'The resource could not be found.' });
    expect(refusal(() => chooseAction(ExampleActions, { reset_status: {} }, at('2.6')))).toEqual({
      status: 404,
      message: 'The resource could not be found.',
    });
  });

  it('given an action Manila never names os-, then its os- name is no action at any version', () => {
    for (const version of ['2.6', '2.7']) {
      expect(
        refusal(() => chooseAction(ExampleActions, { 'os-unmanage': {} }, at(version))),
      ).toEqual({ status: 400, message: 'There is no such action: os-unmanage' });
    }
  });

  it('answers 404 for an action outside its microversions, 400 for an unknown one or a body of two', () => {
    expect(chooseAction(ExampleActions, { access_list: null }, at('2.44')).handler.method).toBe(
      'accessList',
    );
    expect(refusal(() => chooseAction(ExampleActions, { access_list: null }, at('2.45')))).toEqual({
      status: 404,
      message: 'The resource could not be found.',
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
