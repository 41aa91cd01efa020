import type { RecordedEvent } from '#hawser/eventstore';
import type { DocumentWrite } from '#hawser/read-models';
import type { ProcessManager } from './process-manager.js';
import type { Workflow } from './workflow.js';

/** What a workflow needs of the world; everything else it decides by itself. */
export interface WorkflowExecutor<Input, State, Output> {
  /** The recorded event as the workflow's typed input (a refused event throws: it is parked). */
  readonly decode: (recorded: RecordedEvent) => Input;
  /** The history the decision on `input` reads, folded with the workflow's `evolve`. */
  readonly load: (input: Input) => Promise<State>;
  /**
   * Carries out one output (appends a command, asks the scheduler). Command ids derive from
   * `cause`, so carrying out the same output again after a crash repeats nothing. Documents
   * of the process manager's own are returned, to be committed with its checkpoint.
   */
  readonly dispatch: (output: Output, cause: Input) => Promise<readonly DocumentWrite[] | void>;
}

/**
 * Runs a workflow as a process manager: decode, load, decide, dispatch each output in order.
 * The runner keeps the durability (a checkpoint after each page of events, retries with back-off,
 * parked events, storage failures retried by themselves); a dispatch that throws fails the
 * event, which is handled again whole, its earlier outputs repeating nothing.
 */
export const workflowProcessManager = <Input, State, Output, History>(
  workflow: Workflow<Input, State, Output, History>,
  executor: WorkflowExecutor<Input, State, Output>,
): ProcessManager => ({
  name: workflow.name,
  filter: workflow.filter,
  ...(workflow.streamsApart === true && { streamsApart: true }),
  async handle(recorded: RecordedEvent): Promise<readonly DocumentWrite[]> {
    const input = executor.decode(recorded);
    const state = workflow.readsHistory(input)
      ? await executor.load(input)
      : workflow.initialState();
    const writes: DocumentWrite[] = [];
    for (const output of workflow.decide(input, state)) {
      writes.push(...((await executor.dispatch(output, input)) ?? []));
    }
    return writes;
  },
});
