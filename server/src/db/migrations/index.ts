import type { Migration, MigrationProvider } from 'kysely'
import { foundation } from './0001-foundation'
import { identity } from './0002-identity'
import { profile } from './0003-profile'
import { limits } from './0004-limits'
import { sessionsAudit } from './0005-sessions-audit'
import { auditRetention } from './0006-audit-retention'
import { hospitals } from './0007-hospitals'
import { records } from './0008-records'
import { byteCounts } from './0009-byte-counts'
import { bookmarks } from './0010-bookmarks'
import { recordGenerations } from './0011-record-generations'
import { recordGenerationOrder } from './0012-record-generation-order'
import { familyMessages } from './0013-family-messages'
import { grants } from './0014-grants'
import { content } from './0015-content'
import { search } from './0016-search'
import { operatorActions } from './0017-operator-actions'
import { smsCodeScope } from './0018-sms-code-scope'
import { guardianInvitations } from './0019-guardian-invitations'
import { jobReasons } from './0020-job-reasons'
import { experts } from './0021-experts'
import { expertServices } from './0022-expert-services'
import { hospitalRequests } from './0023-hospital-requests'
import { consultations } from './0024-consultations'
import { wallet } from './0025-wallet'
import { statementLines } from './0026-statement-lines'
import { withdrawalPayee } from './0027-withdrawal-payee'
import { opinions } from './0028-opinions'
import { aiAnalyses } from './0029-ai-analyses'
import { examRequests } from './0030-exam-requests'
import { consentLedger } from './0031-consent-ledger'
import { dataExports } from './0032-data-exports'
import { retention } from './0033-retention'

/**
 * Every migration, in order. Names sort lexicographically (Kysely runs them in that order), so keep
 * the four-digit prefix. A migration that has shipped is never edited; add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-identity': identity,
  '0003-profile': profile,
  '0004-limits': limits,
  '0005-sessions-audit': sessionsAudit,
  '0006-audit-retention': auditRetention,
  '0007-hospitals': hospitals,
  '0008-records': records,
  '0009-byte-counts': byteCounts,
  '0010-bookmarks': bookmarks,
  '0011-record-generations': recordGenerations,
  '0012-record-generation-order': recordGenerationOrder,
  '0013-family-messages': familyMessages,
  '0014-grants': grants,
  '0015-content': content,
  '0016-search': search,
  '0017-operator-actions': operatorActions,
  '0018-sms-code-scope': smsCodeScope,
  '0019-guardian-invitations': guardianInvitations,
  '0020-job-reasons': jobReasons,
  '0021-experts': experts,
  '0022-expert-services': expertServices,
  '0023-hospital-requests': hospitalRequests,
  '0024-consultations': consultations,
  '0025-wallet': wallet,
  '0026-statement-lines': statementLines,
  '0027-withdrawal-payee': withdrawalPayee,
  '0028-opinions': opinions,
  '0029-ai-analyses': aiAnalyses,
  '0030-exam-requests': examRequests,
  '0031-consent-ledger': consentLedger,
  '0032-data-exports': dataExports,
  '0033-retention': retention,
}

/** In-code provider: migrations travel with the bundle instead of being read from a folder at runtime. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
