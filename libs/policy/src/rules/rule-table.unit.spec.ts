import { parseCheck } from '../check-language/check-parser.js';
import { loadPolicy } from '../enforcer/load-policy.js';
import { HAWSER_RULES } from './hawser.rules.js';
import { MANILA_RULES } from './manila/manila-rules.js';
import { POLICY_RULES } from './policy-rules.js';

const PERSONA_RULES = new Set([
  'project-admin',
  'project-member',
  'project-reader',
  'context_is_admin',
  'admin_or_owner',
  'default',
  'admin_api',
]);

describe('the rule table', () => {
  it('given every rule, when the defaults load in either mode, then they load without warnings', () => {
    expect(loadPolicy({ enforceNewDefaults: true }).warnings).toEqual([]);
    expect(loadPolicy({ enforceNewDefaults: false }).warnings).toEqual([]);
  });

  it('given every rule, when its names are listed, then none repeats', () => {
    const names = POLICY_RULES.map((rule) => rule.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('given every API rule, when it is described, then it has a description and operations', () => {
    const undocumented = POLICY_RULES.filter(
      (rule) =>
        !PERSONA_RULES.has(rule.name) && (rule.operations.length === 0 || !rule.description),
    );
    expect(undocumented.map((rule) => rule.name)).toEqual([]);
  });

  it('given every default and legacy default, when parsed, then it parses', () => {
    for (const rule of POLICY_RULES) {
      expect(() => parseCheck(rule.check)).not.toThrow();
      if (rule.legacyCheck !== undefined) expect(() => parseCheck(rule.legacyCheck!)).not.toThrow();
    }
  });

  it("given Hawser's own rules, when named, then each has the hawser: prefix and no legacy default", () => {
    expect(HAWSER_RULES.filter((rule) => !rule.name.startsWith('hawser:'))).toEqual([]);
    expect(HAWSER_RULES.filter((rule) => rule.legacyCheck !== undefined)).toEqual([]);
    expect(MANILA_RULES.filter((rule) => rule.name.startsWith('hawser:'))).toEqual([]);
  });

  it('given the resources Hawser serves, when the table is read, then their key rules are there', () => {
    const policy = loadPolicy({ enforceNewDefaults: true });
    for (const rule of [
      'share:create',
      'share:allow_access',
      'share:migration_start',
      'share:revert_to_snapshot',
      'share_snapshot:get_snapshot',
      'share_snapshot_instance:show',
      'share_replica:promote',
      'share_replica_export_location:index',
      'share_instance:index',
      'share_instance_export_location:show',
      'share_export_location:index',
      'share_type:create',
      'share_types_extra_spec:update',
      'share_access_rule:get',
      'share_access_metadata:update',
      'quota_set:update',
      'quota_class_set:show',
      'availability_zone:index',
      'scheduler_stats:pools:detail',
      'service:update',
      'message:delete',
      'hawser:events:get_all',
      'hawser:share:force_migration',
    ]) {
      expect([rule, policy.has(rule)]).toEqual([rule, true]);
    }
  });
});
