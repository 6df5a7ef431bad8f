/**
 * The session's commitment and summary-chain verbs (`session.commitments`, `session.summaries`): each call is
 * one audited session call like every other verb (I8); the use cases load on first use.
 */
import type {
  AddCommitmentInput,
  CreateChainInput,
  ListCommitmentsInput,
  SummaryAddInput,
  SummaryNextInput,
  UpdateCommitmentInput,
} from '../../model/commitment.ts';
import type { SummaryChainRow } from '../../store/commitments-port.ts';
import type { Deps } from '../deps.ts';
import type { AddCommitmentResult, Commitment, StatusChange } from './commitments.ts';
import type { Prospect } from './prospects.ts';
import type { ChainSummary } from './chain-list.ts';
import type { ChainView, SummaryAddResult, SummaryWindow } from './summaries.ts';
import type { TriggerProbe } from './triggers.ts';

/** The session's audited call: operation name, arguments for the audit, the use case. */
export type SessionCall = <T>(operation: string, args: unknown, fn: (deps: Deps) => Promise<T>) => Promise<T>;

const commitments = () => import('./commitments.ts');
const prospects = () => import('./prospects.ts');
const summaries = () => import('./summaries.ts');

export class CommitmentVerbs {
  readonly #call: SessionCall;

  constructor(call: SessionCall) {
    this.#call = call;
  }

  /** Adds a commitment through the write path: it may land, be held for review, or land rejected (I5, I18). */
  add(input: AddCommitmentInput): Promise<AddCommitmentResult> {
    return this.#call('commitments.add', input, async (d) => (await commitments()).addCommitment(d, input));
  }
  list(input: ListCommitmentsInput = {}): Promise<Commitment[]> {
    return this.#call('commitments.list', input, async (d) =>
      (await commitments()).listCommitments(d, input),
    );
  }
  get(id: string): Promise<{ commitment: Commitment; changes: StatusChange[] }> {
    return this.#call('commitments.get', { id }, async (d) => (await commitments()).getCommitment(d, id));
  }
  /** Moves a commitment along open → doing → done | cancelled; one event per move, with who and when. */
  update(input: UpdateCommitmentInput): Promise<{ commitment: Commitment; change: StatusChange | null }> {
    return this.#call('commitments.update', input, async (d) =>
      (await commitments()).updateCommitment(d, input),
    );
  }
  /** Live commitments whose due time, time trigger or schedule falls in (from, to]. */
  dueIn(input: { from: string; to: string; scopes?: string[] }): Promise<Prospect[]> {
    return this.#call('commitments.due', input, async (d) => (await prospects()).commitmentsDueIn(d, input));
  }
  /** Live commitments a memory (its text, key and subjects) or a task's text triggers. */
  triggeredBy(probe: TriggerProbe, scopes?: string[]): Promise<Prospect[]> {
    return this.#call('commitments.triggered', { scopes }, async (d) =>
      (await prospects()).commitmentsTriggeredBy(d, probe, scopes),
    );
  }
}

export class SummaryVerbs {
  readonly #call: SessionCall;

  constructor(call: SessionCall) {
    this.#call = call;
  }

  create(input: CreateChainInput): Promise<SummaryChainRow> {
    return this.#call('summaries.create', input, async (d) => (await summaries()).createChain(d, input));
  }
  /** What is new in the chain since its last live cutoff, bounded, with a token naming the window. */
  next(input: SummaryNextInput): Promise<SummaryWindow> {
    return this.#call('summaries.next', input, async (d) => (await summaries()).summaryNext(d, input));
  }
  /** Stores the chain's next summary, covering (last cutoff, until], through the write path (I18). */
  add(input: SummaryAddInput & { token?: string }): Promise<SummaryAddResult> {
    return this.#call('summaries.add', input, async (d) => (await summaries()).summaryAdd(d, input));
  }
  /** The chains the caller may read, with their latest cutoff and summary and stale counts. */
  list(): Promise<ChainSummary[]> {
    return this.#call('summaries.list', {}, async (d) => (await import('./chain-list.ts')).listChains(d));
  }
  show(chain: string): Promise<ChainView> {
    return this.#call('summaries.show', { chain }, async (d) => (await summaries()).summaryChain(d, chain));
  }
}
