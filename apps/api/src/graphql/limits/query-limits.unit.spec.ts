import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  specifiedRules,
  validate,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { maxComplexityRule } from './query-complexity.rule.js';
import { maxDepthRule } from './query-depth.rule.js';

/** Items that lead to each other (a cycle) and a page of them; tags declare their list size. */
const Item: GraphQLObjectType = new GraphQLObjectType({
  name: 'Item',
  fields: (): GraphQLFieldConfigMap<unknown, unknown> => ({
    name: { type: GraphQLString },
    parent: { type: Item },
    children: { type: new GraphQLNonNull(new GraphQLList(Item)) },
    tags: { type: new GraphQLList(GraphQLString), extensions: { listSize: 3 } },
    labels: { type: new GraphQLList(Label), extensions: { listSize: 2 } },
  }),
});
const Label = new GraphQLObjectType({ name: 'Label', fields: { text: { type: GraphQLString } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      items: {
        type: new GraphQLList(Item),
        args: { first: { type: GraphQLInt, defaultValue: 20 } },
      },
    },
  }),
});

const errorsOf = (query: string, rule: ReturnType<typeof maxDepthRule>) =>
  validate(schema, parse(query), [...specifiedRules, rule]).map((e) => e.message);

describe('query depth limit', () => {
  const depth = maxDepthRule(3);

  it('given fields nested as deep as the limit, then the query is valid', () => {
    expect(errorsOf('{ items { parent { name } } }', depth)).toEqual([]);
  });

  it('given one level more, through a field, a fragment or an inline fragment, then it is refused', () => {
    const refusal = ['The query is nested too deeply: the limit is 3 levels.'];
    expect(errorsOf('{ items { parent { parent { name } } } }', depth)).toEqual(refusal);
    expect(
      errorsOf('{ items { ...P } } fragment P on Item { parent { parent { name } } }', depth),
    ).toEqual(refusal);
    expect(errorsOf('{ items { ... on Item { parent { parent { name } } } } }', depth)).toEqual(
      refusal,
    );
  });

  it('given introspection, then its fields do not count', () => {
    expect(errorsOf('{ __schema { types { fields { type { name } } } } }', depth)).toEqual([]);
  });

  it('given a cycle of fragments, then graphql reports the cycle and the rule ends', () => {
    const errors = errorsOf(
      '{ items { ...A } } fragment A on Item { parent { ...B } } fragment B on Item { ...A }',
      depth,
    );
    expect(errors).toContain('Cannot spread fragment "A" within itself via "B".');
  });
});

describe('query complexity limit', () => {
  it('counts a field once per item of the lists above it', () => {
    // items(first: 10) { name children { name } }: 1 + 10 * (1 + 1 + 10 * 1) = 121
    expect(
      errorsOf('{ items(first: 10) { name children { name } } }', maxComplexityRule(121)),
    ).toEqual([]);
    expect(
      errorsOf('{ items(first: 10) { name children { name } } }', maxComplexityRule(120)),
    ).toEqual(['The query is too complex: its estimated cost exceeds the limit of 120.']);
  });

  it("takes a list's size from first, its default, the field's declared listSize, or 100 for a variable", () => {
    // Default first (20) times (labels: 1 + 2 * 1): 1 + 20 * 3 = 61.
    expect(errorsOf('{ items { labels { text } } }', maxComplexityRule(61))).toEqual([]);
    expect(errorsOf('{ items { labels { text } } }', maxComplexityRule(60))).toHaveLength(1);
    // A variable counts as the largest page: 1 + 100 * 1 = 101.
    const variable = 'query($n: Int) { items(first: $n) { name } }';
    expect(errorsOf(variable, maxComplexityRule(101))).toEqual([]);
    expect(errorsOf(variable, maxComplexityRule(100))).toHaveLength(1);
  });

  it('given fragments that spread each other twice over, or in a cycle, then it ends at once', () => {
    const doubling = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on Item { name ...F${i + 1} ...F${i + 1} }`,
    ).join(' ');
    const started = performance.now();
    // 1 + 20 * 41 names: each fragment is walked once, not 2^40 times.
    expect(
      errorsOf(
        `{ items { ...F0 } } ${doubling} fragment F40 on Item { name }`,
        maxComplexityRule(1_000),
      ),
    ).toEqual([]);
    const cycle = '{ items { ...A } } fragment A on Item { parent { ...A } }';
    expect(errorsOf(cycle, maxComplexityRule(20_000))).toContain(
      'Cannot spread fragment "A" within itself.',
    );
    expect(errorsOf(cycle, maxDepthRule(8))).toContain('Cannot spread fragment "A" within itself.');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops early on a huge request instead of walking all of it', () => {
    const huge = `{ items(first: 100) { ${'children { '.repeat(30)}name${' }'.repeat(30)} } }`;
    expect(errorsOf(huge, maxComplexityRule(20_000))).toEqual([
      'The query is too complex: its estimated cost exceeds the limit of 20000.',
    ]);
  });
});
