import { compileExpression, type CompiledExpression } from './expression-compiler.js';

/**
 * Compiled expressions by their exact text. Pools of one driver report the same few strings,
 * so each is parsed once per process instead of once per pool per request.
 */
export class ExpressionCache {
  private readonly compiled = new Map<string, CompiledExpression>();

  constructor(private readonly maxEntries = 4096) {}

  get(source: string): CompiledExpression {
    let expression = this.compiled.get(source);
    if (!expression) {
      // A flood of distinct strings must not grow memory without bound.
      if (this.compiled.size >= this.maxEntries) this.compiled.clear();
      expression = compileExpression(source);
      this.compiled.set(source, expression);
    }
    return expression;
  }

  get size(): number {
    return this.compiled.size;
  }
}
