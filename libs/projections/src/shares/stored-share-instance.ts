import type { DocumentStore, Filter, FindOptions } from '#hawser/read-models';
import {
  SHARE_INSTANCES,
  type ExportLocationDocument,
  type ShareInstanceDocument,
} from './share.documents.js';

/**
 * A share instance as its collection stores it: no field at its default (null, false, an empty
 * list, rules `active`), and export locations without the instance id they all repeat. Filters
 * read a missing field as null, so `replica_state` and `pending_operation` filter as before.
 * Read through `getShareInstance` / `findShareInstances`, which give the API's document.
 */
export type StoredShareInstance = Pick<
  ShareInstanceDocument,
  'id' | 'revision' | 'share_id' | 'project_id' | 'status' | 'host' | 'created_at' | 'updated_at'
> &
  Partial<Pick<ShareInstanceDocument, keyof typeof INSTANCE_DEFAULTS>> & {
    readonly export_locations?: readonly StoredExportLocation[];
  };

type StoredExportLocation = Pick<ExportLocationDocument, 'id' | 'path'> &
  Partial<ExportLocationDocument>;

const INSTANCE_DEFAULTS = {
  availability_zone: null,
  replica_state: null,
  progress: null,
  share_type_id: null,
  share_network_id: null,
  share_server_id: null,
  access_rules_status: 'active',
  cast_rules_to_readonly: false,
  pending_operation: null,
} as const;

const LOCATION_DEFAULTS = { preferred: false, is_admin_only: false } as const;

const withoutDefaults = (
  value: object,
  defaults: Readonly<Record<string, unknown>>,
): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value).filter(
      ([field, held]) => !(Object.hasOwn(defaults, field) && defaults[field] === held),
    ),
  );

export const toStoredShareInstance = (doc: ShareInstanceDocument): StoredShareInstance => {
  const { export_locations: locations, ...fields } = doc;
  return {
    ...(withoutDefaults(fields, INSTANCE_DEFAULTS) as StoredShareInstance),
    ...(locations.length > 0 && {
      export_locations: locations.map(
        ({ share_instance_id: _instance, ...location }) =>
          withoutDefaults(location, LOCATION_DEFAULTS) as StoredExportLocation,
      ),
    }),
  };
};

/** The API's document of a stored instance (a document stored whole, as before, reads as it is). */
export const shareInstanceDocumentOf = (stored: StoredShareInstance): ShareInstanceDocument => ({
  ...INSTANCE_DEFAULTS,
  ...stored,
  export_locations: (stored.export_locations ?? []).map((location) => ({
    ...LOCATION_DEFAULTS,
    ...location,
    share_instance_id: stored.id,
  })),
});

export const getShareInstance = async (
  documents: DocumentStore,
  id: string,
): Promise<ShareInstanceDocument | undefined> => {
  const stored = await documents.get<StoredShareInstance>(SHARE_INSTANCES, id);
  return stored && shareInstanceDocumentOf(stored);
};

export const findShareInstances = async (
  documents: DocumentStore,
  filter?: Filter,
  options?: FindOptions,
): Promise<ShareInstanceDocument[]> =>
  (await documents.find<StoredShareInstance>(SHARE_INSTANCES, filter, options)).map(
    shareInstanceDocumentOf,
  );
