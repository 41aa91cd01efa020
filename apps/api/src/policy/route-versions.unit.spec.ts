import 'reflect-metadata';
import { negotiateMicroversion } from '../http/microversion.js';
import { inVersionRange, versionRangeOf } from './route-versions.js';
import { Experimental, Since, Until } from './route-policy.decorators.js';

@Since('2.11')
@Experimental('2.55')
class ExperimentalRoutes {
  everyVersion() {}

  @Since('2.47')
  later() {}
}

@Until('2.6')
class LegacyRoutes {
  @Since('2.25')
  detail() {}
}

const version = (text: string, experimental = false) =>
  negotiateMicroversion(text, experimental ? 'True' : undefined);

const served = (controller: new () => object, method: string, text: string, experimental = false) =>
  inVersionRange(
    versionRangeOf(controller, (controller.prototype as Record<string, object>)[method] as object),
    version(text, experimental),
  );

describe('route versions', () => {
  it('gives a handler its controller range when it declares none', () => {
    expect(versionRangeOf(ExperimentalRoutes, ExperimentalRoutes.prototype.everyVersion)).toEqual({
      since: '2.11',
      until: undefined,
      experimentalUntil: '2.55',
    });
  });

  it('holds the handler and its controller at once: the later since, the earlier until', () => {
    expect(versionRangeOf(ExperimentalRoutes, ExperimentalRoutes.prototype.later).since).toBe(
      '2.47',
    );
    expect(versionRangeOf(LegacyRoutes, LegacyRoutes.prototype.detail)).toEqual({
      since: '2.25',
      until: '2.6',
      experimentalUntil: undefined,
    });
    expect(served(LegacyRoutes, 'detail', '2.6')).toBe(false);
    expect(served(LegacyRoutes, 'detail', '2.25')).toBe(false);
  });

  it('serves from since to until, both included', () => {
    expect(served(ExperimentalRoutes, 'later', '2.46', true)).toBe(false);
    expect(served(ExperimentalRoutes, 'later', '2.47', true)).toBe(true);
    expect(served(ExperimentalRoutes, 'everyVersion', '2.10', true)).toBe(false);
    expect(served(ExperimentalRoutes, 'everyVersion', '2.11', true)).toBe(true);
  });

  it('needs the experimental header up to its last experimental version, not after', () => {
    expect(served(ExperimentalRoutes, 'everyVersion', '2.55')).toBe(false);
    expect(served(ExperimentalRoutes, 'everyVersion', '2.55', true)).toBe(true);
    expect(served(ExperimentalRoutes, 'everyVersion', '2.56')).toBe(true);
  });
});
