import { DriverError } from '../contract/driver-error.js';
import type { DriverOperationName } from '../contract/share-driver.js';
import type { FailureRule } from '../config/backend-config.js';
import { createSeededRandom } from './seeded-random.js';

/** Decides, deterministically from a seed and call counts, which calls fail. */
export class FailureInjector {
  private readonly rules: FailureRule[];
  private readonly random: () => number;
  private readonly callsByOperation = new Map<DriverOperationName, number>();
  private totalCalls = 0;

  constructor(rules: readonly FailureRule[], seed: number) {
    this.rules = [...rules];
    this.random = createSeededRandom(seed);
  }

  add(rule: FailureRule): void {
    this.rules.push(rule);
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** Counts the call and returns the error to throw, if any. */
  check(operation: DriverOperationName, commandId: string): DriverError | null {
    const operationCall = (this.callsByOperation.get(operation) ?? 0) + 1;
    this.callsByOperation.set(operation, operationCall);
    this.totalCalls += 1;
    for (const rule of this.rules) {
      if (rule.operation !== '*' && rule.operation !== operation) continue;
      const call = rule.operation === '*' ? this.totalCalls : operationCall;
      if (this.matches(rule, call)) {
        return new DriverError({
          code: rule.code ?? 'injected_failure',
          userMessage: rule.userMessage ?? `The back end failed to ${operation}.`,
          detail: `injected failure on call ${call}`,
          operation,
          commandId,
        });
      }
    }
    return null;
  }

  private matches(rule: FailureRule, call: number): boolean {
    if (rule.nthCall !== undefined) {
      const calls = typeof rule.nthCall === 'number' ? [rule.nthCall] : rule.nthCall;
      if (calls.includes(call)) return true;
    }
    // Draw only for probabilistic rules so the sequence depends on nothing else.
    return rule.probability !== undefined && this.random() < rule.probability;
  }
}
