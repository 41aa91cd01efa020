import { invalid } from '../shared/domain-error.js';

const METADATA_KEY_MAX = 255;
const METADATA_VALUE_MAX = 1023;

export const validateMetadata = (metadata: Record<string, string>): void => {
  for (const [key, value] of Object.entries(metadata)) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX) {
      throw invalid(`Metadata key must be 1 to ${METADATA_KEY_MAX} characters.`);
    }
    if (typeof value !== 'string' || value.length === 0 || value.length > METADATA_VALUE_MAX) {
      throw invalid(`Metadata value for ${key} must be 1 to ${METADATA_VALUE_MAX} characters.`);
    }
  }
};
