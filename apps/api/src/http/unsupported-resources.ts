/** The resource families of back ends with share servers, which Hawser does not serve. */
const UNSUPPORTED_FAMILIES: readonly [RegExp, string][] = [
  [/^share[-_]network(s|[-_]subnets)\b/, 'Share networks'],
  [/^share[-_]servers\b/, 'Share servers'],
  [/^security[-_]services\b/, 'Security services'],
  [/^(share[-_]groups?|share[-_]group[-_](types|snapshots))\b/, 'Share groups'],
];

/** After `/v2/` and the optional project id. */
const RESOURCE_PATH = /^\/v[12]\/(?:[0-9a-fA-F-]{32,36}\/)?(.*)$/;

/**
 * The message of a 404 for a path of a family Hawser does not serve (share networks, share
 * servers, security services, share groups): it says so, where an unknown path is Manila's
 * bare "resource could not be found". Undefined for any other path.
 */
export const unsupportedResourceMessage = (path: string): string | undefined => {
  const resource = RESOURCE_PATH.exec(path)?.[1];
  if (resource === undefined) return undefined;
  const family = UNSUPPORTED_FAMILIES.find(([pattern]) => pattern.test(resource))?.[1];
  return family === undefined
    ? undefined
    : `${family} are not supported by this deployment: it serves back ends without share ` +
        'servers (driver_handles_share_servers=False) only.';
};
