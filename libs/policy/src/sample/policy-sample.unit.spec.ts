import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadPolicy } from '../enforcer/load-policy.js';
import { POLICY_RULES } from '../rules/policy-rules.js';
import type { RuleDefinition } from '../rules/rule-definition.js';
import { policySample } from './policy-sample.js';

const committedSample = new URL('../../../../docs/policy.yaml.sample', import.meta.url);

/** The sample with every rule line uncommented: the defaults written out as overrides. */
const uncommented = (sample: string): string =>
  sample
    .split('\n')
    .filter((line) => line.startsWith('#"'))
    .map((line) => line.slice(1))
    .join('\n');

describe('policySample: the generated policy reference', () => {
  it('given the rule table, when the sample is generated, then it equals the committed docs/policy.yaml.sample (run npm run policy:sample)', () => {
    expect(policySample(POLICY_RULES)).toBe(readFileSync(committedSample, 'utf8'));
  });

  it('given a rule, when it is written, then its description, operations, legacy default and default appear', () => {
    const rule: RuleDefinition = {
      name: 'share:extend',
      check: '(rule:context_is_admin) or (rule:project-member)',
      legacyCheck: 'rule:default',
      description: 'Extend share.',
      operations: [{ method: 'POST', path: '/shares/{share_id}/action' }],
    };
    expect(policySample([rule]).trimEnd().split('\n\n')[1]).toBe(
      [
        '# Extend share.',
        '# POST  /shares/{share_id}/action',
        '# Legacy default: "rule:default"',
        '#"share:extend": "(rule:context_is_admin) or (rule:project-member)"',
      ].join('\n'),
    );
  });

  it('given the sample as it stands, when it is read as YAML, then it overrides nothing', () => {
    expect(parse(policySample(POLICY_RULES))).toBeNull();
  });

  it('given every rule line uncommented, when the file loads, then each rule holds its default', () => {
    const sample = policySample(POLICY_RULES);
    const overrides = parse(uncommented(sample)) as Record<string, string>;
    expect(overrides).toEqual(
      Object.fromEntries(POLICY_RULES.map((rule) => [rule.name, rule.check])),
    );

    const directory = mkdtempSync(join(tmpdir(), 'hawser-policy-sample-'));
    try {
      const file = join(directory, 'policy.yaml');
      writeFileSync(file, uncommented(sample));
      expect(loadPolicy({ file, enforceNewDefaults: true }).warnings).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('given a long description, when it is written, then it wraps within 79 columns', () => {
    const description = 'word '.repeat(40).trim();
    const lines = policySample([{ name: 'r', check: '@', description, operations: [] }])
      .trimEnd()
      .split('\n\n')[1]!
      .split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => line.length <= 79)).toBe(true);
    expect(
      lines
        .slice(0, -1)
        .map((line) => line.slice(2))
        .join(' '),
    ).toBe(description);
  });
});
