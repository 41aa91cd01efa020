/**
 * Errors a decision can end in. Each maps to the HTTP status Manila returns for the same case,
 * so the API layer translates them without knowing the domain.
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'over_limit';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const forbidden = (message: string): DomainError => new DomainError('forbidden', message);
export const notFound = (message: string): DomainError => new DomainError('not_found', message);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const overLimit = (message: string): DomainError => new DomainError('over_limit', message);
/** An admin's reset to a state it cannot take, in Manila's words (`validate_update`). */
export const invalidState = (valid: readonly (string | null)[]): DomainError =>
  invalid(`Invalid state. Valid states: ${valid.map((state) => String(state)).join(', ')}.`);
