/**
 * `derivedId(eventId, purpose)`: the RFC 4122 version 5 (SHA-1, node:crypto) id of a command
 * caused by an event, the same every time the event is handled. The domain owns the
 * implementation so that deciders and process managers derive identical ids.
 */
export { derivedId } from '#hawser/domain';
