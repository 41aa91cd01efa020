import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POLICY_RULES, policySample } from '#hawser/policy';

/** Where the committed reference lives, from the repository root (this file runs from dist/). */
const POLICY_SAMPLE_PATH = 'docs/policy.yaml.sample';

const root = fileURLToPath(new URL('../../../', import.meta.url));
writeFileSync(`${root}${POLICY_SAMPLE_PATH}`, policySample(POLICY_RULES));
console.log(`Wrote ${POLICY_SAMPLE_PATH} (${POLICY_RULES.length} rules).`);
