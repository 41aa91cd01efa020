import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { badRequest, invalidInput } from '#hawser/api-contracts';
import { MESSAGES, type MessageDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore, type Filter } from '#hawser/read-models';
import { pageOf } from '../listing/page-params.js';
import { ListingQuery } from '../listing/listing-query.js';
import { atLeast, type ApiVersion, type Caller } from '../requester.js';

const EQUALITY_FILTERS = [
  'request_id',
  'resource_type',
  'resource_id',
  'action_id',
  'detail_id',
  'message_level',
] as const;
/** Manila's sortable message columns. */
const SORT_KEYS = new Set<string>([
  'id',
  'project_id',
  ...EQUALITY_FILTERS,
  'created_at',
  'expires_at',
]);

/**
 * ISO 8601 as the `iso8601` library behind Manila's `parse_isotime` reads it: a year, then
 * optionally a month and a day (with dashes, one or two digits, or without), a time from the
 * hour on (colons optional, a fraction after `.` or `,`) and a UTC offset.
 */
const ISO_8601 =
  /^(?<year>\d{4})(?:(?:-(?<monthDash>\d{1,2})|(?<month>\d{2})(?!$))(?:(?:-(?<dayDash>\d{1,2})|(?<day>\d{2}))(?:[ T](?<hour>\d{2})(?::?(?<minute>\d{2}))?(?::?(?<second>\d{1,2})(?:[.,](?<fraction>\d+))?)?(?:Z|(?<sign>[-+])(?<offsetHour>\d{2}):?(?<offsetMinute>\d{2})?)?)?)?)?$/;

/**
 * A time filter as Manila's `parse_isotime` takes it: a date that exists (not February 30th,
 * not year 0) and fields in range, UTC unless an offset is given; else Manila's 400.
 * `Date.parse` alone takes more (`2020-02-30` as March 1st, `99999-01-01`).
 */
const isoTime = (name: string, value: string): string => {
  const refused = () => badRequest(`Invalid value specified for the query key: ${name}`);
  const fields = ISO_8601.exec(value)?.groups;
  if (!fields) throw refused();
  /** The first of the groups the text holds, as a number; `absent` when it holds none. */
  const field = (absent: number, ...keys: string[]): number =>
    Number(keys.map((key) => fields[key]).find((text) => text !== undefined) ?? absent);
  const [year, month, day] = [
    field(0, 'year'),
    field(1, 'monthDash', 'month'),
    field(1, 'dayDash', 'day'),
  ];
  const [hour, minute, second] = [field(0, 'hour'), field(0, 'minute'), field(0, 'second')];
  const [offsetHour, offsetMinute] = [field(0, 'offsetHour'), field(0, 'offsetMinute')];
  const time = new Date(0);
  time.setUTCFullYear(year, month - 1, day);
  const inRange =
    year >= 1 &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHour <= 23 &&
    offsetMinute <= 59;
  if (!inRange) throw refused();
  const offset = (fields.sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  const milliseconds = Number((fields.fraction ?? '').padEnd(3, '0').slice(0, 3));
  time.setUTCHours(hour, minute - offset, second, milliseconds);
  return time.toISOString();
};

/**
 * GET /messages (reference 3.9): equality filters, created_since/created_before from 2.52,
 * sort and paging (`more` when a page follows); the caller's project unless admin; expired messages are not shown (Manila
 * reaps them, Hawser hides them from the moment they expire).
 */
export class ListMessages extends ListingQuery<MessageListPage> {}

export interface MessageListPage {
  readonly messages: MessageDocument[];
  /** True when a page follows. */
  readonly more: boolean;
}

@QueryHandler(ListMessages)
export class ListMessagesHandler implements IQueryHandler<ListMessages, MessageListPage> {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  execute({ query, reader }: ListMessages): Promise<MessageListPage> {
    return listMessages(this.documents, reader.caller, reader.version, query, new Date());
  }
}

const listMessages = async (
  documents: DocumentStore,
  auth: Caller,
  version: ApiVersion,
  query: Readonly<Record<string, string | undefined>>,
  now: Date,
): Promise<MessageListPage> => {
  const filter: Filter = {};
  for (const key of EQUALITY_FILTERS) {
    if (query[key] !== undefined) filter[key] = query[key];
  }
  if (!auth.isAdmin) filter.project_id = auth.projectId;
  const created: Record<string, string> = {};
  if (atLeast(version, '2.52')) {
    if (query.created_since !== undefined) {
      created.$gte = isoTime('created_since', query.created_since);
    }
    if (query.created_before !== undefined) {
      created.$lte = isoTime('created_before', query.created_before);
    }
  }
  // Manila's `paginate_query`: a key the model lacks is refused, any direction but `desc` is up.
  const sortKey = query.sort_key ?? 'created_at';
  if (!SORT_KEYS.has(sortKey)) throw invalidInput(`Invalid sort key ${sortKey}.`);
  const found = await documents.find<MessageDocument>(MESSAGES, filter, {
    sort: [[sortKey, (query.sort_dir ?? 'desc') === 'desc' ? -1 : 1]],
  });
  const nowIso = now.toISOString();
  // One field takes one condition in the store's filter, so the time range is applied here.
  const inRange = (m: MessageDocument) =>
    m.expires_at > nowIso &&
    (created.$gte === undefined || m.created_at >= created.$gte) &&
    (created.$lte === undefined || m.created_at <= created.$lte);
  const { page, more } = pageOf(found.filter(inRange), query);
  return { messages: page, more };
};
