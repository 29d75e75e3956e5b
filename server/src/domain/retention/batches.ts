/*
 * The purge deletes in bounded batches: one statement removes at most `size` rows (a short lock on
 * SQLite's single writer, a short transaction on PostgreSQL), and one run stops after `maxBatches`
 * per kind, so a backlog of millions is worked off run after run instead of in one long statement.
 */

export interface BatchLimits {
  /** Rows per statement. */
  size: number
  /** Statements per kind of record in one run. */
  maxBatches: number
}

export const DEFAULT_BATCHES: BatchLimits = { size: 500, maxBatches: 40 }

/**
 * Calls `step(size)` (which removes or changes at most `size` rows and answers how many) until a
 * batch comes back short or the run's budget is spent. Answers the rows done. Another process
 * running the same step at once makes a batch short, never wrong: the rest waits for the next run.
 */
export async function inBatches(
  limits: BatchLimits,
  step: (size: number) => Promise<number | bigint>,
): Promise<number> {
  let total = 0
  for (let batch = 0; batch < limits.maxBatches; batch += 1) {
    const done = Number(await step(limits.size))
    total += done
    if (done < limits.size) break
  }
  return total
}
