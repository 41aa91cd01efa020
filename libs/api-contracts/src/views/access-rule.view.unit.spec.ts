import type { AccessRuleDocument } from '#hawser/projections';
import { accessListEntryView, accessRuleView, legacyAccessState } from './access-rule.view.js';
import { type FieldRow, itShowsTheTableKeys, viewContext } from './test-support/view-context.js';

/** Manila's access rule view, reference 1.7 (`api/views/share_accesses.py`). */
const ACCESS_LIST_ENTRY: readonly FieldRow[] = [
  { key: 'id' },
  { key: 'access_level' },
  { key: 'access_to' },
  { key: 'access_type' },
  { key: 'state' },
  { key: 'access_key', from: '2.21' },
  { key: 'created_at', from: '2.33' },
  { key: 'updated_at', from: '2.33' },
  { key: 'metadata', from: '2.45' },
];
const ACCESS: readonly FieldRow[] = [...ACCESS_LIST_ENTRY, { key: 'share_id' }];

const rule = {
  id: 'rule-1',
  revision: 5,
  share_id: 's1',
  project_id: 'p1',
  access_type: 'ip',
  access_to: '10.0.0.0/24',
  access_level: 'rw',
  access_key: null,
  state: 'queued_to_apply',
  instance_states: { i1: 'queued_to_apply' },
  metadata: { owner: 'ops' },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
} satisfies AccessRuleDocument;

describe('access rule views: the field set per microversion', () => {
  describe('{"access": ...} (with share_id)', () => {
    itShowsTheTableKeys(ACCESS, (ctx) => accessRuleView(rule, ctx));
  });
  describe('access_list entries (without share_id)', () => {
    itShowsTheTableKeys(ACCESS_LIST_ENTRY, (ctx) => accessListEntryView(rule, ctx));
  });
});

describe('access rule views: state per microversion', () => {
  it("shows the rule's own state from 2.28", () => {
    expect(accessRuleView(rule, viewContext('2.28'), 'new').state).toBe('queued_to_apply');
  });

  it("shows the share's access_rules_status up to 2.27, syncing as new", () => {
    expect(accessRuleView(rule, viewContext('2.27'), legacyAccessState([rule])).state).toBe('new');
    const applied = { ...rule, state: 'active', instance_states: { i1: 'active' } };
    expect(accessRuleView(applied, viewContext('2.27'), legacyAccessState([applied])).state).toBe(
      'active',
    );
    const failed = { ...rule, state: 'error', instance_states: { i1: 'error' } };
    expect(legacyAccessState([applied, failed])).toBe('error');
  });

  it('shows the metadata from 2.45', () => {
    expect(accessListEntryView(rule, viewContext('2.45')).metadata).toEqual({ owner: 'ops' });
  });
});
