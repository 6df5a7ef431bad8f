/**
 * The store/ledger conformance suite: every invariant I1–I14 the store and the library carry, parameterised by
 * a factory of fresh homes so it runs unchanged on every backend (STYLE.md point 4). Each backend's test file
 * calls `conformanceSuite` once, then adds its own regressions.
 */
import { describe } from 'node:test';
import { appendOnlyCases } from './cases/i01-append-only.ts';
import { oneSuccessorCases } from './cases/i02-one-successor.ts';
import { currentCases } from './cases/i03-current.ts';
import { neighbourScopeCases } from './cases/i04-neighbours.ts';
import { scopeCases } from './cases/i04-scope.ts';
import { vectorScopeCases } from './cases/i04-vectors.ts';
import { rejectionCases } from './cases/i05-rejection.ts';
import { gateCases } from './cases/i06-gate.ts';
import { humansJudgeCases } from './cases/i07-humans-judge.ts';
import { slackVerdictCases } from './cases/i07-slack-verdicts.ts';
import { auditCases } from './cases/i08-audit.ts';
import { heldAuditCases } from './cases/i08-audit-held.ts';
import { erasureCases } from './cases/i09-erasure.ts';
import { workspaceErasureCases } from './cases/i09-workspace-erasure.ts';
import { vectorErasureCases } from './cases/i09-vectors.ts';
import { noCredentialCases } from './cases/i10-no-credentials.ts';
import { userTextCases } from './cases/i11-user-text.ts';
import { twoClockCases } from './cases/i12-two-clocks.ts';
import { durableCases } from './cases/i13-durable.ts';
import { notifyDeliveryCases } from './cases/i13-notify-delivery.ts';
import { provenanceCases } from './cases/i14-provenance.ts';
import { ephemeralCases } from './cases/i15-ephemeral.ts';
import { agentSqlCases } from './cases/i16-agent-sql.ts';
import { behaviorSourceCases } from './cases/i16-behavior-sources.ts';
import { foreignImportCases } from './cases/i18-foreign-import.ts';
import { importCases } from './cases/i18-import.ts';
import { commitmentGateCases } from './cases/i18-commitments.ts';
import { summaryChainCases } from './cases/i02-summary-chain.ts';
import { summaryErasureCases } from './cases/i09-summary-erasure.ts';
import { summaryListCases } from './cases/i04-summary-list.ts';
import { outstandingCases } from './cases/i17-outstanding.ts';
import { behaviorOutputCases } from './cases/i18-behavior-outputs.ts';
import { behaviorAdminCases } from './cases/i07-behavior-admin.ts';
import { restorePlanCases } from './cases/i07-restore-plans.ts';
import type { ConformanceFactory } from './harness.ts';

export type { Capabilities, ConformanceFactory, ConformanceHome, HomeOptions } from './harness.ts';

/**
 * Registers the whole suite under `describe(backend)`. `factory` opens a fresh, empty home per test; it may take
 * options (a policy, a clock) and report capabilities, and tests needing a capability it lacks skip with a reason.
 * @example
 * conformanceSuite('sqlite', async (options) => {
 *   const home = mkdtempSync(join(tmpdir(), 'ml-'));
 *   return { ledger: openLedger({ home, ...options }), home, cleanup: async () => rmSync(home, { recursive: true }) };
 * });
 */
export function conformanceSuite(backend: string, factory: ConformanceFactory): void {
  describe(`conformance: ${backend}`, () => {
    appendOnlyCases(factory);
    oneSuccessorCases(factory);
    currentCases(factory);
    scopeCases(factory);
    neighbourScopeCases(factory);
    vectorScopeCases(factory);
    rejectionCases(factory);
    gateCases(factory);
    humansJudgeCases(factory);
    slackVerdictCases(factory);
    auditCases(factory);
    heldAuditCases(factory);
    erasureCases(factory);
    workspaceErasureCases(factory);
    vectorErasureCases(factory);
    noCredentialCases(factory);
    userTextCases(factory);
    twoClockCases(factory);
    durableCases(factory);
    notifyDeliveryCases(factory);
    provenanceCases(factory);
    ephemeralCases(factory);
    agentSqlCases(factory);
    behaviorSourceCases(factory);
    importCases(factory);
    restorePlanCases(factory);
    foreignImportCases(factory);
    commitmentGateCases(factory);
    summaryChainCases(factory);
    summaryErasureCases(factory);
    summaryListCases(factory);
    outstandingCases(factory);
    behaviorOutputCases(factory);
    behaviorAdminCases(factory);
  });
}
