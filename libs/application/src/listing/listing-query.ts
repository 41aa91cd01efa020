import { Query } from '@nestjs/cqrs';
import type { Reader } from '../requester.js';

/** A Manila listing: its query parameters (filters, sort, paging) as the reader gave them. */
export abstract class ListingQuery<Page> extends Query<Page> {
  constructor(
    readonly query: Readonly<Record<string, string | undefined>>,
    readonly reader: Reader,
  ) {
    super();
  }
}
