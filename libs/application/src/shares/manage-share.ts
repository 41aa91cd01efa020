import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest, ManilaHttpError, notFoundError, toBoolean } from '#hawser/api-contracts';
import { capabilitiesOf, parseBoolean } from '#hawser/domain';
import {
  BACKENDS,
  findShareInstances,
  type BackendDocument,
  type ShareDocument,
} from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import { timeOrderedId } from '../time-ordered-id.js';
import { isObject, optionalText, stringDictionary, unprocessable } from '../request-body.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareTypeReads } from '../share-types/share-type-reads.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

/** POST /shares/manage (2.7+): adopt a share that exists on a pool (admin). */
export class ManageShare extends Command<ShareDocument> {
  constructor(
    /** The request body as sent (`{"share": {...}}`). */
    readonly body: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** Manila's _validate_manage_parameters, in its order (422 for a missing or empty parameter). */
const manageParameters = (body: unknown) => {
  const data = isObject(body) ? body.share : undefined;
  if (!isObject(data)) throw unprocessable('Share entity not found in request body');
  for (const key of ['export_path', 'service_host', 'protocol']) {
    if (!(key in data)) throw unprocessable(`Required parameter ${key} not found`);
    if (!data[key]) throw unprocessable(`Required parameter ${key} is empty`);
  }
  let exportPath = data.export_path;
  if (isObject(exportPath)) {
    if (!('path' in exportPath)) {
      throw unprocessable("Export path must be a string, or a dictionary with a 'path' item");
    }
    exportPath = exportPath.path;
  }
  if (typeof exportPath !== 'string' || !exportPath) {
    throw unprocessable("Export path must be a string, or a dictionary with a 'path' item");
  }
  const serviceHost = data.service_host;
  const protocol = data.protocol;
  if (typeof serviceHost !== 'string') throw badRequest('service_host must be a string.');
  if (typeof protocol !== 'string') throw badRequest('protocol must be a string.');
  return { data, exportPath, serviceHost, protocol };
};

/**
 * Manila's manage (api/v1/share_manage.py, share/api.py): the pool's back end must exist, the
 * type must be one without share servers, no share may already have that export path on that
 * host. The share is `manage_starting` on the named pool; its node's driver adopts it and reports
 * its size (Manila's scheduler check of the host against the type is not made: see the api
 * contracts README).
 */
@CommandHandler(ManageShare)
export class ManageShareHandler implements ICommandHandler<ManageShare, ShareDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly shareTypes: ShareTypeReads,
    private readonly changes: ShareChanges,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  async execute({ body, requester }: ManageShare): Promise<ShareDocument> {
    const { data, exportPath, serviceHost, protocol } = manageParameters(body);
    const caller = requester.caller;
    const [backendName, pool] = serviceHost.split('#');
    if (!pool) throw badRequest('service_host parameter should contain pool.');
    const backend = await this.documents.get<BackendDocument>(BACKENDS, backendName as string);
    if (!backend) throw notFoundError(`Service ${backendName} could not be found.`);
    const typeName = optionalText(data, 'share_type');
    const shareType = typeName
      ? await this.shareTypes.find(typeName, caller)
      : await this.shareTypes.findDefault(caller);
    if (!shareType) throw notFoundError('Share type default could not be found.');
    // From 2.8 the share may be public (2.7 ignores the key, as Manila does).
    const isPublic =
      atLeast(requester.version, '2.8') && data.is_public !== undefined
        ? toBoolean(data.is_public)
        : false;
    if (isPublic === undefined) {
      throw badRequest(`Invalid boolean value for is_public: ${String(data.is_public)}.`);
    }
    if (isPublic) requester.policy.enforce('share:create_public_share');
    const dhss = parseBoolean(shareType.extra_specs.driver_handles_share_servers ?? 'false');
    if (dhss) {
      throw badRequest(
        'Share Server ID parameter is required when managing a share using a share type with driver_handles_share_servers extra-spec set to True.',
      );
    }
    if (atLeast(requester.version, '2.49') && data.share_server_id) {
      throw badRequest(
        'Share Server ID parameter is not expected when managing a share using a share type with driver_handles_share_servers extra-spec set to False.',
      );
    }
    const driverOptions = stringDictionary(data.driver_options, 'driver_options');
    if (await this.alreadyManaged(serviceHost, exportPath)) {
      throw new ManilaHttpError(409, 'A share already exists with the export path specified.');
    }
    const shareId = timeOrderedId();
    await this.changes.run(
      shareId,
      {
        type: 'ManageShare',
        shareId,
        instanceId: timeOrderedId(),
        projectId: caller.projectId,
        userId: caller.userId,
        name: optionalText(data, 'display_name', 'name'),
        description: optionalText(data, 'display_description', 'description'),
        shareProto: protocol.toUpperCase(),
        shareType: { id: shareType.id, name: shareType.name, extraSpecs: shareType.extra_specs },
        capabilities: capabilitiesOf(shareType.extra_specs),
        host: serviceHost,
        availabilityZone: backend.availability_zone,
        exportPath,
        driverOptions,
        isPublic,
        createdAt: new Date().toISOString(),
      },
      requester.commandContext(),
      { newStream: true },
    );
    return this.shares.find(shareId, caller);
  }

  /** A share on that host already has that export path, or is being managed from it. */
  private async alreadyManaged(host: string, exportPath: string): Promise<boolean> {
    const instances = await findShareInstances(this.documents, { host });
    for (const instance of instances) {
      if (instance.export_locations.some((l) => l.path === exportPath)) return true;
      const state = await this.shares.folded(instance.share_id);
      if (state?.kind === 'active' && state.manageRequest?.exportPath === exportPath) return true;
    }
    return false;
  }
}

/** The share's `unmanage` action (2.7+): Hawser lets the share go, its data kept (admin). */
export class UnmanageShare extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** Manila's refusals (replicas 409; a transitional state or snapshots 403) are the decider's. */
@CommandHandler(UnmanageShare)
export class UnmanageShareHandler implements ICommandHandler<UnmanageShare, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, requester }: UnmanageShare): Promise<void> {
    const share = await this.shares.findFor(shareId, requester);
    await this.changes.run(
      share.id,
      { type: 'UnmanageShare', now: new Date().toISOString() },
      requester.commandContext(),
    );
  }
}
