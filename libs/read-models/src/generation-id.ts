import { randomBytes } from 'node:crypto';

/** A new generation name: time-ordered, unique, and safe inside a collection name. */
export function newGenerationId(): string {
  return `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** `name@generation` addresses one generation's physical collection directly. */
export function generationCollection(collection: string, generation: string): string {
  return `${collection}@${generation}`;
}

export function isGenerationAddress(collection: string): boolean {
  return collection.includes('@');
}
