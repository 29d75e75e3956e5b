import type { DB } from '../../db'
import type { PatientScope } from './lists'

/*
 * The patient lists (我的报告, 我的影像) are read far more often than they change: each tab switch and
 * each return from a detail page asks again. Computing one for a person with 200 exams costs a few
 * milliseconds of the server's one JavaScript thread (most of it turning SQLite rows into objects),
 * which is what bounded the lists' latency under load. This keeps the last answers in memory while
 * nothing they depend on has changed.
 *
 * "Has changed" is decided by the database, not by this process: triggers (migration 0011) bump a
 * counter per person (`u:<user>`), per identity (`p:<patient key>`) and for everything (`*`) in the
 * same transaction as any write to exams, reports, claims, the person's marks or hospital names. An
 * answer is reused only while the caller's counters are where they were before it was computed, so a
 * report pushed to another server process, or a hospital renamed by the CLI, shows on the next
 * request. Reading the counters before computing makes a race harmless: a write that lands during the
 * computation moves the counters past the version the answer is stored under, so it is computed again.
 *
 * Answers are shared between requests: callers must not mutate them (the routes only serialise them).
 */

/** Answers kept per process (a full 我的影像 of a heavy user is about 30 KB of objects). */
export const LIST_CACHE_ENTRIES = 500

export interface ListCache {
  /** The answer for (list, caller, options): reused while the caller's records are unchanged. */
  get<T>(list: string, scope: PatientScope, options: unknown, compute: () => Promise<T>): Promise<T>
  /** Entries held now (tests, diagnostics). */
  readonly size: number
}

export function createListCache(db: DB, maxEntries = LIST_CACHE_ENTRIES): ListCache {
  const entries = new Map<string, { version: string; value: Promise<unknown> }>()

  async function versionOf(scope: PatientScope): Promise<string> {
    // The asker's marks, and (当前就诊人) the listed person's own uploads, claims and marks.
    const subjects = [`u:${scope.userId}`, '*']
    if (scope.caller.kind === 'user' && scope.caller.userId !== scope.userId) {
      subjects.push(`u:${scope.caller.userId}`)
    }
    if (scope.identity) subjects.push(`p:${scope.identity.patientKey}`)
    const rows = await db
      .selectFrom('record_generations')
      .select(['subject', 'generation'])
      .where('subject', 'in', subjects)
      .execute()
    const generationOf = new Map(rows.map((row) => [row.subject, Number(row.generation)]))
    return subjects.map((subject) => generationOf.get(subject) ?? 0).join('.')
  }

  return {
    get size() {
      return entries.size
    },
    async get<T>(
      list: string,
      scope: PatientScope,
      options: unknown,
      compute: () => Promise<T>,
    ): Promise<T> {
      const identity = scope.identity
        ? `${scope.identity.patientKey}/${scope.identity.nameHash}`
        : '-'
      // Keyed by the listed person too: a manager's own list and a member's are different answers.
      const person =
        scope.caller.kind === 'user'
          ? scope.caller.userId
          : scope.caller.kind === 'hospital'
            ? scope.caller.hospitalId
            : scope.caller.grantId
      const key = `${list}\u0000${scope.userId}\u0000${person}\u0000${identity}\u0000${JSON.stringify(options)}`
      const version = await versionOf(scope)
      const held = entries.get(key)
      if (held && held.version === version) {
        // Most recently used last, so eviction takes the oldest.
        entries.delete(key)
        entries.set(key, held)
        return held.value as Promise<T>
      }
      // The promise itself is kept, so a burst of the same request computes once.
      const value = compute()
      entries.delete(key)
      entries.set(key, { version, value })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      return value
    },
  }
}
