/** Manila's user-message detail per last filter (message/message_field.py); others get 002. */
const FILTER_DETAILS: Readonly<Record<string, readonly [string, string]>> = {
  AvailabilityZoneFilter: ['007', 'AvailabilityZone'],
  CapabilitiesFilter: ['008', 'Capabilities'],
  CapacityFilter: ['009', 'Capacity'],
  DriverFilter: ['010', 'Driver'],
  IgnoreAttemptedHostsFilter: ['011', 'IgnoreAttemptedHosts'],
  JsonFilter: ['012', 'Json'],
  RetryFilter: ['013', 'Retry'],
  ShareReplicationFilter: ['014', 'ShareReplication'],
  CreateFromSnapshotFilter: ['016', 'CreateFromSnapshot'],
};

export const NO_VALID_HOST_DETAIL = {
  id: '002',
  message:
    'No storage could be allocated for this share request. Trying again with a different size or share type may succeed.',
} as const;

/** Manila's actions whose user message reports a NoValidHost: placing a share, extending it. */
const NO_VALID_HOST_ACTIONS = { '001': 'allocate host', '008': 'extend' } as const;

/** The user message of a failed placement: action 001 ("allocate host") and a detail by filter. */
export interface NoValidHostUserMessage {
  readonly actionId: keyof typeof NO_VALID_HOST_ACTIONS;
  readonly detailId: string;
  /** As GET /messages shows it: "allocate host: <detail>". */
  readonly userMessage: string;
}

export const noValidHostUserMessage = (
  lastFilter: string | null,
  actionId: NoValidHostUserMessage['actionId'] = '001',
): NoValidHostUserMessage => {
  const detail = lastFilter ? FILTER_DETAILS[lastFilter] : undefined;
  const [detailId, text] = detail
    ? [
        detail[0],
        `No storage could be allocated for this share request, ${detail[1]} filter didn't succeed.`,
      ]
    : [NO_VALID_HOST_DETAIL.id, NO_VALID_HOST_DETAIL.message];
  return { actionId, detailId, userMessage: `${NO_VALID_HOST_ACTIONS[actionId]}: ${text}` };
};

/** The NoValidHost exception text Manila logs and stores. */
export const noValidHostMessage = (lastFilter: string | null): string =>
  `No valid host was found. Failed to find a weighted host, the last executed filter was ${lastFilter ?? 'None'}.`;

/** Manila's host_passes_filters NoValidHost, when the requested pool did not pass. */
export const hostFailedFiltersMessage = (
  shareId: string,
  host: string,
  lastFilter: string | null,
): string =>
  `No valid host was found. Cannot place share ${shareId} on ${host}, the last executed filter was ${lastFilter ?? 'None'}.`;

/** Manila's scheduler_max_attempts default (reference 6.3, 6.10). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** The NoValidHost Manila raises when a share comes back once more than the attempts allow. */
export const exceededAttemptsMessage = (maxAttempts: number, shareId: string): string =>
  `No valid host was found. Exceeded max scheduling attempts ${maxAttempts} for share ${shareId}`;
