// archiver 5 ships no types; this describes the part the data export calls.
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream'

  interface EntryData {
    name: string
    date?: Date
    /** Stored without compression (DICOM, JPEG, PDF gain little from deflate). */
    store?: boolean
  }
  interface Archiver extends Transform {
    append(source: Readable | Buffer | string, data: EntryData): this
    finalize(): Promise<void>
    abort(): this
    pointer(): number
  }
  function archiver(
    format: 'zip',
    options?: { zlib?: { level?: number }; forceZip64?: boolean },
  ): Archiver
  export = archiver
}
