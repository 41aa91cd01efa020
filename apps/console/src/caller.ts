import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Client } from 'graphql-ws';
import type { ApiClient } from './api/client';

/** GET /hawser/v1/permissions: who the caller is and which rules they pass on their project. */
export interface Permissions {
  readonly user_id: string;
  readonly project_id: string;
  readonly roles: readonly string[];
  readonly is_admin: boolean;
  readonly rules: Readonly<Record<string, boolean>>;
}

export interface Caller {
  readonly api: ApiClient;
  readonly live: Client;
  readonly permissions: Permissions;
  /** True when the policy in force lets the caller do what `rule` guards. */
  can(rule: string): boolean;
  signOut(): void;
}

export const CallerContext = createContext<Caller | null>(null);

export const useCaller = (): Caller => {
  const caller = useContext(CallerContext);
  if (!caller) throw new Error('useCaller outside a signed-in page');
  return caller;
};

export const callerOf = (
  api: ApiClient,
  live: Client,
  permissions: Permissions,
  signOut: () => void,
): Caller => ({
  api,
  live,
  permissions,
  can: (rule) => permissions.rules[rule] === true,
  signOut,
});
