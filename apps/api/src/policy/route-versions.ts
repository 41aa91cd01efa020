import type { Type } from '@nestjs/common';
import { notFoundError } from '../http/manila-error.js';
import { atLeast, type Microversion } from '../http/request-context.js';
import { EXPERIMENTAL_KEY, SINCE_KEY, UNTIL_KEY } from './route-policy.decorators.js';

/** The microversions a route exists in, as its handler and its controller declare them. */
export interface VersionRange {
  readonly since: string | undefined;
  readonly until: string | undefined;
  /** The last version that needs the experimental header. */
  readonly experimentalUntil: string | undefined;
}

const own = (key: string, target: object): string | undefined =>
  Reflect.getOwnMetadata(key, target) as string | undefined;

/** The later of two versions, either of them absent (no bound). */
export const newer = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined ? b : b === undefined ? a : compare(a, b) >= 0 ? a : b;

/** The earlier of two versions, either of them absent (no bound). */
export const older = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined ? b : b === undefined ? a : compare(a, b) <= 0 ? a : b;

const compare = (a: string, b: string): number => {
  const [aMajor, aMinor] = a.split('.').map(Number) as [number, number];
  const [bMajor, bMinor] = b.split('.').map(Number) as [number, number];
  return aMajor - bMajor || aMinor - bMinor;
};

/** The handler's range within its controller's: both declarations hold at once. */
export const versionRangeOf = (controller: Type<unknown>, handler: object): VersionRange => ({
  since: newer(own(SINCE_KEY, controller), own(SINCE_KEY, handler)),
  until: older(own(UNTIL_KEY, controller), own(UNTIL_KEY, handler)),
  experimentalUntil: newer(own(EXPERIMENTAL_KEY, controller), own(EXPERIMENTAL_KEY, handler)),
});

const nextMinor = (version: string): string => {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return `${major}.${minor + 1}`;
};

/** True when a request at `version` reaches a route (or action) of this range. */
export const inVersionRange = (range: VersionRange, version: Microversion): boolean =>
  (range.since === undefined || atLeast(version, range.since)) &&
  (range.until === undefined || !atLeast(version, nextMinor(range.until))) &&
  (range.experimentalUntil === undefined ||
    version.experimental ||
    atLeast(version, nextMinor(range.experimentalUntil)));

/** Manila's answer for a route its microversion does not have (VersionNotFoundForAPIMethod). */
export const routeNotInVersion = () => notFoundError('The resource could not be found.');
