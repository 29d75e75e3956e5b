/**
 * 导出我的数据 at size (issue 24: a 2 GB export keeps server memory under 300 MB). Alone:
 * `npx tsx bench/export.ts` (EXPORT_BENCH_MB=2048 by default; EXPORT_BENCH_EACH_MB=8). Prints
 * figures, never fails.
 *
 * In this process, as the job runs it in the server: a fresh SQLite database and local object
 * store, one person with one uploaded study of EXPORT_BENCH_MB in objects of EXPORT_BENCH_EACH_MB
 * (made as streams), then the archive job's writeArchive into the store. The resident memory is
 * sampled every 50 ms while the archive is written; /proc's high-water mark is printed too (it
 * covers the seeding as well).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadConfig } from '../server/src/config'
import { createFieldCipher } from '../server/src/crypto/field-cipher'
import { createDatabase } from '../server/src/db'
import { writeArchive } from '../server/src/domain/data-export'
import { LocalObjectStore } from '../server/src/storage'
import { largePerson } from '../server/test/data-export/large-person'

const MB = 1024 * 1024

async function main() {
  const totalMb = Number(process.env.EXPORT_BENCH_MB ?? 2048)
  const eachMb = Number(process.env.EXPORT_BENCH_EACH_MB ?? 8)
  const root = mkdtempSync(path.join(tmpdir(), 'bench-export-'))
  const database = createDatabase({ kind: 'sqlite', file: path.join(root, 'bench.sqlite') })
  try {
    await database.migrate()
    const config = loadConfig({ LOG_LEVEL: 'silent' })
    const store = new LocalObjectStore(path.join(root, 'objects'))
    const now = new Date()
    const seeding = performance.now()
    const person = await largePerson(database.db, store, now, {
      instances: Math.ceil(totalMb / eachMb),
      bytesEach: eachMb * MB,
    })
    console.log(
      `seeded ${(person.totalBytes / MB).toFixed(0)} MB in ${Math.ceil(totalMb / eachMb)} objects ` +
        `in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    )
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 50)
    const started = performance.now()
    const summary = await writeArchive(
      {
        db: database.db,
        store,
        cipher: createFieldCipher(config.idCardKey),
        now: () => now,
        fontPath: config.pdfFont,
        opinionPdf: null,
      },
      person.userId,
      'exports/bench/archive.zip',
    )
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    const seconds = (performance.now() - started) / 1000
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    console.log(
      `archive: ${(summary.bytes / MB).toFixed(0)} MB, ${summary.instances} files, ` +
        `${seconds.toFixed(1)} s (${(summary.bytes / MB / seconds).toFixed(0)} MB/s)`,
    )
    console.log(
      `resident memory while writing: ${(before / MB).toFixed(0)} MB before, ` +
        `peak ${(peak / MB).toFixed(0)} MB (budget 300 MB); process high-water mark ` +
        `${hwm ? (Number(hwm) / 1024).toFixed(0) : '?'} MB`,
    )
  } finally {
    await database.destroy()
    rmSync(root, { recursive: true, force: true })
  }
}

void main()
