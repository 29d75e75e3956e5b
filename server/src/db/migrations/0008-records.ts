import type { Kysely, Migration } from 'kysely'

/*
 * Images and reports (issue 7). The unit a patient owns is the exam: one study a hospital performed
 * (or one study the patient uploaded), with its series, instances and the hospital's report.
 *
 * - A hospital exam is keyed by (hospital_id, study_uid); both STOW-RS and a FHIR report create it
 *   on first sight, whichever arrives first.
 * - A patient's upload is keyed by (owner_user_id, study_uid); hospital_id is null.
 * - Who the person is never lives in clear: patient_key is the keyed digest of the resident ID
 *   number (the same digest id_cards.number_hash uses, so matching is an indexed equality), and
 *   patient_name_hash the keyed digest of the normalised name. Name and phone for display and SMS
 *   proof are encrypted with the ID-card cipher.
 * - Files live in the object store; rows hold their keys. Flags are 0/1 integers, times ISO strings,
 *   sizes integers (bytes): per-exam sizes stay far below 2^31.
 */
export const records: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exams')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('hospital_id', 'text', (col) => col.references('hospitals.id'))
      .addColumn('owner_user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      // 'hospital' | 'upload'
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('study_uid', 'text')
      // The hospital's exam number (检查号, DICOM AccessionNumber), what 影像查询 asks for.
      .addColumn('accession_number', 'text')
      .addColumn('patient_key', 'text')
      .addColumn('patient_name_hash', 'text')
      .addColumn('patient_name_encrypted', 'text')
      .addColumn('patient_phone_encrypted', 'text')
      .addColumn('patient_sex', 'text')
      .addColumn('patient_birth_date', 'text')
      // Distinct modalities of the study's series, comma separated ('CT', 'MR,SR').
      .addColumn('modalities', 'text', (col) => col.notNull().defaultTo(''))
      .addColumn('body_part', 'text')
      .addColumn('description', 'text')
      // YYYY-MM-DD and HH:mm:ss as the study says them (local time of the hospital).
      .addColumn('study_date', 'text')
      .addColumn('study_time', 'text')
      // What the patient typed for an upload (save dicom report): title, hospital name, notes.
      .addColumn('title', 'text')
      .addColumn('hospital_text', 'text')
      .addColumn('notes', 'text')
      .addColumn('series_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('instance_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('size_bytes', 'integer', (col) => col.notNull().defaultTo(0))
      // 'receiving' | 'processing' | 'ready' | 'failed' (uploads move through them; pushes land ready)
      .addColumn('status', 'text', (col) => col.notNull())
      // Why it failed, in words a person understands.
      .addColumn('status_message', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('exams_hospital_study_uidx')
      .on('exams')
      .columns(['hospital_id', 'study_uid'])
      .unique()
      .execute()
    await db.schema
      .createIndex('exams_owner_study_uidx')
      .on('exams')
      .columns(['owner_user_id', 'study_uid'])
      .unique()
      .execute()
    await db.schema.createIndex('exams_patient_idx').on('exams').column('patient_key').execute()
    await db.schema
      .createIndex('exams_accession_idx')
      .on('exams')
      .columns(['hospital_id', 'accession_number'])
      .execute()

    await db.schema
      .createTable('series')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('series_uid', 'text', (col) => col.notNull())
      .addColumn('modality', 'text')
      .addColumn('series_number', 'integer')
      .addColumn('description', 'text')
      .addColumn('body_part', 'text')
      .addColumn('instance_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('series_exam_uidx')
      .on('series')
      .columns(['exam_id', 'series_uid'])
      .unique()
      .execute()

    await db.schema
      .createTable('instances')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('series_id', 'text', (col) =>
        col.notNull().references('series.id').onDelete('cascade'),
      )
      .addColumn('sop_instance_uid', 'text', (col) => col.notNull())
      .addColumn('sop_class_uid', 'text')
      .addColumn('instance_number', 'integer')
      .addColumn('transfer_syntax', 'text', (col) => col.notNull())
      .addColumn('rows', 'integer')
      .addColumn('columns', 'integer')
      .addColumn('frame_count', 'integer', (col) => col.notNull().defaultTo(1))
      // The file as received (WADO-RS instance retrieve) and its size.
      .addColumn('file_key', 'text', (col) => col.notNull())
      .addColumn('file_size', 'integer', (col) => col.notNull())
      // The decoded frames, concatenated in the canonical format (dicom/README.md); null when the
      // pixels could not be decoded (then preview_status says why).
      .addColumn('pixels_key', 'text')
      // Layout of pixels_key: 'u8' | 'u16' | 's16' (one sample, little-endian) | 'rgb8' (interleaved),
      // and the bytes of one frame (frame n starts at n * frame_bytes).
      .addColumn('pixel_format', 'text')
      .addColumn('frame_bytes', 'integer')
      // 'ready' | 'unsupported' | 'failed' | 'none' (no pixel data: SR, PR...)
      .addColumn('preview_status', 'text', (col) => col.notNull())
      .addColumn('preview_message', 'text')
      // PS3.18 Annex F JSON of the instance without bulk data (WADO-RS metadata, QIDO attributes).
      .addColumn('metadata_json', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    // The same SOP instance sent twice is stored once.
    await db.schema
      .createIndex('instances_exam_sop_uidx')
      .on('instances')
      .columns(['exam_id', 'sop_instance_uid'])
      .unique()
      .execute()
    await db.schema
      .createIndex('instances_series_idx')
      .on('instances')
      .columns(['series_id', 'instance_number'])
      .execute()

    await db.schema
      .createTable('reports')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('hospital_id', 'text', (col) => col.notNull().references('hospitals.id'))
      // The hospital's id for the DiagnosticReport (its logical id or identifier value).
      .addColumn('resource_id', 'text', (col) => col.notNull())
      // FHIR DiagnosticReport.status: preliminary | final | amended | corrected | cancelled ...
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('code_text', 'text')
      .addColumn('findings', 'text')
      .addColumn('conclusion', 'text')
      .addColumn('performer', 'text')
      .addColumn('reviewer', 'text')
      .addColumn('effective_at', 'text')
      .addColumn('issued_at', 'text')
      // The stored resource as we answer it (meta.versionId, id of ours).
      .addColumn('resource_json', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('reports_hospital_resource_uidx')
      .on('reports')
      .columns(['hospital_id', 'resource_id'])
      .unique()
      .execute()
    await db.schema.createIndex('reports_exam_idx').on('reports').column('exam_id').execute()

    // Every version a hospital sent: the amendment history the patient sees.
    await db.schema
      .createTable('report_versions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('report_id', 'text', (col) =>
        col.notNull().references('reports.id').onDelete('cascade'),
      )
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('resource_json', 'text', (col) => col.notNull())
      .addColumn('recorded_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('report_versions_uidx')
      .on('report_versions')
      .columns(['report_id', 'version'])
      .unique()
      .execute()

    // Files a patient attached to an exam (photos of a paper report), re-encoded without EXIF.
    await db.schema
      .createTable('exam_files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('file_key', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema.createIndex('exam_files_exam_idx').on('exam_files').column('exam_id').execute()

    // A hospital exam added to an account without a bound ID: by 影像查询 or a scanned film-bag code,
    // each after an SMS code to the phone the hospital recorded. via: 'query' | 'scan'
    await db.schema
      .createTable('exam_claims')
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('via', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('exam_claims_pk', ['user_id', 'exam_id'])
      .execute()
    await db.schema
      .createIndex('exam_claims_exam_idx')
      .on('exam_claims')
      .column('exam_id')
      .execute()

    // One person's view of one exam: report privacy, read mark, personal archive, hidden from lists.
    await db.schema
      .createTable('exam_user_states')
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('report_private', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('report_read_at', 'text')
      .addColumn('archived_at', 'text')
      .addColumn('hidden_at', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('exam_user_states_pk', ['user_id', 'exam_id'])
      .execute()

    // Ingest work (STOW-RS pushes, zip uploads): the state a person sees, and what a restarted
    // process needs to resume. The payload waits in the object store under staging_prefix.
    await db.schema
      .createTable('ingest_jobs')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // 'stow' | 'upload'
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('hospital_id', 'text', (col) => col.references('hospitals.id'))
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('exam_id', 'text', (col) => col.references('exams.id').onDelete('set null'))
      // 'receiving' | 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('staging_prefix', 'text', (col) => col.notNull())
      .addColumn('file_name', 'text')
      .addColumn('total_bytes', 'integer')
      .addColumn('received_bytes', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('stored_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('duplicate_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('skipped_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      // Chinese, for the person: why it failed or what was skipped.
      .addColumn('message', 'text')
      // Per-instance outcome (STOW-RS response), JSON.
      .addColumn('result_json', 'text')
      // A worker holds the job until locked_until; a crashed worker's job is taken again after it.
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('finished_at', 'text')
      .execute()
    await db.schema
      .createIndex('ingest_jobs_status_idx')
      .on('ingest_jobs')
      .columns(['status', 'locked_until'])
      .execute()
    await db.schema
      .createIndex('ingest_jobs_user_idx')
      .on('ingest_jobs')
      .columns(['user_id', 'created_at'])
      .execute()

    // Bytes a person stores (uploads, photos): reserved before the slow work, released on failure.
    await db.schema
      .createTable('storage_usage')
      .addColumn('user_id', 'text', (col) =>
        col.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('used_bytes', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'storage_usage',
      'ingest_jobs',
      'exam_user_states',
      'exam_claims',
      'exam_files',
      'report_versions',
      'reports',
      'instances',
      'series',
      'exams',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
