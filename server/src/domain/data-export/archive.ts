import type { Readable } from 'node:stream'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExamsTable, ReportsTable } from '../../db/schema'
import type { ObjectStore } from '../../storage'
import { boundIdentity, visibleTo } from '../records'
import { consentHistory } from './consents'
import {
  type DicomDirPatient,
  type DicomDirSeries,
  type DicomDirStudy,
  fileIdComponent,
  writeDicomDir,
} from './dicomdir'
import { type BundleExam, type BundleSeries, buildBundle } from './fhir-bundle'
import { ARCHIVE_README } from './readme'
import { reportPdf } from './report-pdf'
import { ZipWriter } from './zip-writer'

/*
 * Builds the archive of one person: everything the product keeps about them that they may take
 * away (PIPL art. 45), as one zip streamed into the object store. Nothing is held whole: each file
 * comes from the store as a stream and goes into the zip as one (ZipWriter), a PDF is written into
 * the zip as pdfkit makes it, and only the small indexes (the DICOMDIR's records, the FHIR Bundle's
 * resources, JSON lists of rows) are kept until their entry is written.
 *
 * Whose data: the exams exactly as the person's own lists show them (records.visibleTo for the
 * person: their uploads, hospital exams claimed or matching their bound ID card), never what a
 * grant lets them see of someone else. Who may ask is decided before (exports.ts).
 */

export interface ArchiveContext {
  db: DB
  store: ObjectStore
  cipher: FieldCipher
  now: () => Date
  /** config.pdfFont; without a CJK font the PDFs are left out and README says so. */
  fontPath: string | null
  /** A signed opinion's PDF as its patient downloads it; null leaves them out. */
  opinionPdf: ((patientUserId: string, opinionId: string) => Promise<Buffer>) | null
  signal?: AbortSignal
}

export interface ArchiveSummary {
  exams: number
  instances: number
  reports: number
  consultations: number
  bytes: number
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const extOf = (mime: string) =>
  mime === 'image/png'
    ? 'png'
    : mime === 'image/webp'
      ? 'webp'
      : mime === 'image/gif'
        ? 'gif'
        : 'jpg'
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null)

function dicomDate(date: string | null): string | null {
  if (!date || !/^\d{8}$/.test(date)) return null
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`
}

function metaString(metadataJson: string | undefined, tag: string): string | null {
  if (!metadataJson) return null
  const element = (JSON.parse(metadataJson) as Record<string, { Value?: unknown[] }>)[tag]
  const value = element?.Value?.[0]
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && 'Alphabetic' in value)
    return String((value as { Alphabetic: unknown }).Alphabetic)
  return null
}

/** Writes the archive under `key`; answers what it holds. */
export async function writeArchive(
  ctx: ArchiveContext,
  personId: string,
  key: string,
): Promise<ArchiveSummary> {
  const zip = new ZipWriter()
  const put = ctx.store.put(key, zip.output, { contentType: 'application/zip' })
  // A put that fails (the store is full) stops reading: the next add would wait forever.
  let putError: unknown
  const putFailed = new Promise<never>((_, reject) => {
    put.catch((error: unknown) => {
      putError = error
      reject(error)
    })
  })
  putFailed.catch(() => undefined)
  const add = async (
    name: string,
    source: Parameters<ZipWriter['add']>[1],
    options?: { store?: boolean },
  ) => {
    if (ctx.signal?.aborted) throw new Error('data export aborted')
    await Promise.race([zip.add(name, source, options), putFailed])
  }
  try {
    const summary = await fill(ctx, personId, add)
    const bytes = await Promise.race([zip.finish(), putFailed])
    await put
    return { ...summary, bytes }
  } catch (error) {
    zip.abort()
    await put.catch(() => undefined)
    await ctx.store.delete(key).catch(() => undefined)
    throw putError ?? error
  }
}

type Add = (
  name: string,
  source: Buffer | string | (() => Promise<Readable> | Readable),
  options?: { store?: boolean },
) => Promise<void>

async function fill(
  ctx: ArchiveContext,
  personId: string,
  add: Add,
): Promise<Omit<ArchiveSummary, 'bytes'>> {
  const { db, cipher } = ctx
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', personId)
    .executeTakeFirstOrThrow()
  const card = await db
    .selectFrom('id_cards')
    .selectAll()
    .where('user_id', '=', personId)
    .executeTakeFirst()
  const holder = card ? cipher.decrypt(card.holder_encrypted) : null
  const personName = holder ?? user.nickname

  await add('README.txt', ARCHIVE_README(ctx.fontPath !== null))

  // 个人资料
  const family = await db
    .selectFrom('family_links')
    .leftJoin('users as manager', 'manager.id', 'family_links.manager_user_id')
    .leftJoin('users as member', 'member.id', 'family_links.member_user_id')
    .select([
      'family_links.manager_user_id',
      'family_links.member_user_id',
      'family_links.kind',
      'family_links.relation',
      'family_links.created_at',
      'family_links.ended_at',
      'manager.nickname as manager_nickname',
      'member.nickname as member_nickname',
    ])
    .where((eb) =>
      eb.or([
        eb('family_links.manager_user_id', '=', personId),
        eb('family_links.member_user_id', '=', personId),
      ]),
    )
    .orderBy('family_links.created_at')
    .execute()
  await add(
    'profile/profile.json',
    json({
      id: user.id,
      nickname: user.nickname,
      mobile: user.mobile,
      gender: user.gender,
      role: user.role,
      createdAt: user.created_at,
      idCard: card
        ? {
            holder,
            number: cipher.decrypt(card.number_encrypted),
            boundAt: card.created_at,
            verifiedAt: card.verified_at,
          }
        : null,
      family: family.map((link) => ({
        role: link.manager_user_id === personId ? 'manager' : 'member',
        other: link.manager_user_id === personId ? link.member_nickname : link.manager_nickname,
        kind: link.kind,
        relation: link.relation,
        createdAt: link.created_at,
        endedAt: link.ended_at,
      })),
    }),
  )
  const avatars = await db
    .selectFrom('files')
    .selectAll()
    .where('user_id', '=', personId)
    .where('kind', '=', 'avatar')
    .orderBy('created_at')
    .execute()
  for (const [i, file] of avatars.entries()) {
    if (!(await ctx.store.exists(file.storage_key))) continue
    await add(
      `profile/avatar-${i + 1}.${extOf(file.mime_type)}`,
      async () => {
        return (await ctx.store.get(file.storage_key)).body
      },
      { store: true },
    )
  }

  await add('consents/consents.json', json(await consentHistory(db, personId)))

  // 影像: every exam of the person, its files as received, under DICOM/ with a DICOMDIR.
  const identity = await boundIdentity(db, cipher, personId)
  const exams = await db
    .selectFrom('exams')
    .selectAll()
    .where(visibleTo({ kind: 'user', userId: personId }, identity))
    .where('status', '=', 'ready')
    .orderBy('study_date')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const hospitalNames = new Map(
    (
      await db
        .selectFrom('hospitals')
        .select(['id', 'name'])
        .where('id', 'in', [...new Set(exams.map((e) => e.hospital_id ?? ''))].concat(['']))
        .execute()
    ).map((row) => [row.id, row.name]),
  )
  const patients = new Map<string, DicomDirPatient>()
  const bundleExams: BundleExam[] = []
  let instanceCount = 0
  for (const exam of exams) {
    const first = await db
      .selectFrom('instances')
      .select('metadata_json')
      .where('exam_id', '=', exam.id)
      .limit(1)
      .executeTakeFirst()
    const patientId = metaString(first?.metadata_json, '00100020') ?? personId.slice(0, 16)
    const patientName = metaString(first?.metadata_json, '00100010') ?? personName
    const patientKey = `${patientId}\u0000${patientName}`
    let patient = patients.get(patientKey)
    if (!patient) {
      patient = { patientId, name: patientName, studies: [] }
      patients.set(patientKey, patient)
    }
    const pa = fileIdComponent('PA', [...patients.keys()].indexOf(patientKey) + 1)
    const st = fileIdComponent('ST', patient.studies.length + 1)
    const study: DicomDirStudy = {
      studyUid: exam.study_uid ?? '',
      date: exam.study_date ?? '',
      time: exam.study_time ?? '',
      description: exam.title ?? exam.description ?? '',
      accessionNumber: exam.accession_number ?? '',
      studyId: String(bundleExams.length + 1),
      series: [],
    }
    const seriesRows = await db
      .selectFrom('series')
      .selectAll()
      .where('exam_id', '=', exam.id)
      .orderBy('series_number')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    const bundleSeries: BundleSeries[] = []
    for (const [s, series] of seriesRows.entries()) {
      const se = fileIdComponent('SE', s + 1)
      const instances = await db
        .selectFrom('instances')
        .select([
          'sop_instance_uid',
          'sop_class_uid',
          'instance_number',
          'transfer_syntax',
          'file_key',
        ])
        .where('series_id', '=', series.id)
        .orderBy('instance_number')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      const dirSeries: DicomDirSeries = {
        seriesUid: series.series_uid,
        modality: series.modality ?? 'OT',
        seriesNumber: series.series_number ?? s + 1,
        images: [],
      }
      for (const [i, instance] of instances.entries()) {
        const fileId = ['DICOM', pa, st, se, fileIdComponent('IM', i + 1)]
        await add(fileId.join('/'), async () => (await ctx.store.get(instance.file_key)).body, {
          store: true,
        })
        dirSeries.images.push({
          fileId,
          sopClassUid: instance.sop_class_uid ?? '1.2.840.10008.5.1.4.1.1.7',
          sopInstanceUid: instance.sop_instance_uid,
          transferSyntaxUid: instance.transfer_syntax,
          instanceNumber: instance.instance_number ?? i + 1,
        })
      }
      instanceCount += instances.length
      study.series.push(dirSeries)
      bundleSeries.push({
        seriesUid: series.series_uid,
        modality: series.modality,
        seriesNumber: series.series_number,
        description: series.description,
        instances: instances.map((instance) => ({
          sopInstanceUid: instance.sop_instance_uid,
          sopClassUid: instance.sop_class_uid,
          instanceNumber: instance.instance_number,
        })),
      })
    }
    patient.studies.push(study)
    bundleExams.push({
      exam,
      series: bundleSeries,
      hospitalName: exam.hospital_id ? (hospitalNames.get(exam.hospital_id) ?? null) : null,
    })
  }
  await add('DICOMDIR', writeDicomDir([...patients.values()]), { store: true })

  // 报告 and 照片
  const examIds = exams.map((exam) => exam.id)
  const examById = new Map(exams.map((exam) => [exam.id, exam]))
  const reports: { report: ReportsTable; exam: ExamsTable }[] = examIds.length
    ? (
        await db
          .selectFrom('reports')
          .selectAll()
          .where('exam_id', 'in', examIds)
          .orderBy('issued_at')
          .orderBy('id')
          .execute()
      ).map((report) => ({ report, exam: examById.get(report.exam_id)! }))
    : []
  const photoRows = examIds.length
    ? await db
        .selectFrom('exam_files')
        .innerJoin('exams', 'exams.id', 'exam_files.exam_id')
        .selectAll('exam_files')
        .where('exam_files.exam_id', 'in', examIds)
        .where((eb) =>
          eb.or([
            eb('exam_files.user_id', '=', personId),
            eb('exams.owner_user_id', '=', personId),
          ]),
        )
        .orderBy('exam_files.created_at')
        .orderBy('exam_files.id')
        .execute()
    : []
  const photos = new Map<string, string[]>()
  for (const [i, photo] of photoRows.entries()) {
    if (!(await ctx.store.exists(photo.file_key))) continue
    const examNo = examIds.indexOf(photo.exam_id) + 1
    const name = `uploads/photos/exam-${examNo}-${i + 1}.${extOf(photo.mime_type)}`
    await add(name, async () => (await ctx.store.get(photo.file_key)).body, { store: true })
    photos.set(photo.exam_id, [...(photos.get(photo.exam_id) ?? []), name])
  }
  const bundle = buildBundle({
    person: {
      id: personId,
      name: personName,
      gender: user.gender,
      phone: user.mobile,
      birthDate: null,
    },
    exams: bundleExams,
    reports,
    photos,
    cipher,
    now: ctx.now(),
  })
  await add('fhir/bundle.json', json(bundle))

  let reportCount = 0
  if (ctx.fontPath) {
    const fontPath = ctx.fontPath
    const examLabel = (exam: ExamsTable) =>
      exam.title ?? exam.description ?? (exam.modalities || '检查')
    for (const { report, exam } of reports) {
      reportCount += 1
      const name = `reports/${String(reportCount).padStart(3, '0')}-${dicomDate(exam.study_date) ?? day(report.issued_at) ?? 'undated'}.pdf`
      await add(name, () =>
        reportPdf(
          {
            title: report.code_text ?? '检查报告',
            hospital: hospitalNames.get(report.hospital_id) ?? null,
            patient: personName,
            exam: examLabel(exam),
            examDate: dicomDate(exam.study_date),
            findings: report.findings,
            conclusion: report.conclusion,
            performer: report.performer,
            reviewer: report.reviewer,
            issuedAt: report.issued_at,
            source: '医院报告',
          },
          fontPath,
        ),
      )
    }
    for (const exam of exams) {
      if (exam.source !== 'upload' || (!exam.title && !exam.notes && !exam.hospital_text)) continue
      reportCount += 1
      const name = `reports/${String(reportCount).padStart(3, '0')}-${dicomDate(exam.study_date) ?? 'undated'}-personal.pdf`
      await add(name, () =>
        reportPdf(
          {
            title: exam.title ?? '个人报告',
            hospital: exam.hospital_text,
            patient: personName,
            exam: examLabel(exam),
            examDate: dicomDate(exam.study_date),
            findings: null,
            conclusion: exam.notes,
            performer: null,
            reviewer: null,
            issuedAt: null,
            source: '个人报告',
          },
          fontPath,
        ),
      )
    }
  }

  // 咨询: each consultation for the person, its conversation, pictures and signed opinions.
  const consultations = await db
    .selectFrom('consultations')
    .leftJoin('users as expert', 'expert.id', 'consultations.expert_user_id')
    .selectAll('consultations')
    .select('expert.nickname as expert_nickname')
    .where('consultations.person_user_id', '=', personId)
    .orderBy('consultations.created_at')
    .orderBy('consultations.id')
    .execute()
  for (const [c, consultation] of consultations.entries()) {
    const folder = `consultations/${String(c + 1).padStart(3, '0')}-${day(consultation.created_at)}`
    const [events, messages, pictures, opinions] = await Promise.all([
      db
        .selectFrom('consultation_events')
        .select(['state', 'actor', 'note', 'at'])
        .where('consultation_id', '=', consultation.id)
        .orderBy('at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('consultation_messages')
        .select([
          'seq',
          'sender',
          'kind',
          'text',
          'picture_id',
          'answer_json',
          'signed_at',
          'created_at',
        ])
        .where('consultation_id', '=', consultation.id)
        .orderBy('seq')
        .execute(),
      db
        .selectFrom('consultation_pictures')
        .selectAll()
        .where('consultation_id', '=', consultation.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('opinions')
        .select(['id', 'verify_code', 'signed_at'])
        .where('consultation_id', '=', consultation.id)
        .orderBy('signed_at')
        .execute(),
    ])
    const pictureNames = new Map<string, string>()
    for (const [p, picture] of pictures.entries()) {
      if (!(await ctx.store.exists(picture.object_key))) continue
      const name = `${folder}/pictures/${p + 1}.${extOf(picture.content_type)}`
      await add(name, async () => (await ctx.store.get(picture.object_key)).body, { store: true })
      pictureNames.set(picture.id, name)
    }
    const opinionFiles: string[] = []
    if (ctx.opinionPdf) {
      for (const opinion of opinions) {
        const name = `${folder}/opinion-${opinion.verify_code}.pdf`
        const pdf = await ctx.opinionPdf(consultation.patient_user_id, opinion.id)
        await add(name, pdf, { store: true })
        opinionFiles.push(name)
      }
    }
    await add(
      `${folder}/consultation.json`,
      json({
        id: consultation.id,
        expert: consultation.expert_nickname,
        service: consultation.service,
        state: consultation.state,
        priceFen: consultation.price_fen,
        chiefComplaint: consultation.chief_complaint,
        presentIllness: consultation.present_illness,
        pastHistory: consultation.past_history,
        allergies: consultation.allergies,
        questions: consultation.questions,
        createdAt: consultation.created_at,
        paidAt: consultation.paid_at,
        answeredAt: consultation.answered_at,
        completedAt: consultation.completed_at,
        rating: consultation.rating_stars
          ? { stars: consultation.rating_stars, text: consultation.rating_text }
          : null,
        events,
        messages: messages.map((message) => ({
          seq: message.seq,
          sender: message.sender,
          kind: message.kind,
          text: message.text,
          picture: message.picture_id ? (pictureNames.get(message.picture_id) ?? null) : null,
          answer: message.answer_json ? (JSON.parse(message.answer_json) as unknown) : null,
          signedAt: message.signed_at,
          createdAt: message.created_at,
        })),
        opinions: opinions.map((opinion) => ({
          verifyCode: opinion.verify_code,
          signedAt: opinion.signed_at,
        })),
        opinionFiles,
      }),
    )
  }

  // 授权记录 and who viewed through them.
  const grants = await db
    .selectFrom('grants')
    .leftJoin('users as grantee', 'grantee.id', 'grants.grantee_user_id')
    .selectAll('grants')
    .select('grantee.nickname as grantee_nickname')
    .where('grants.person_user_id', '=', personId)
    .orderBy('grants.created_at')
    .orderBy('grants.id')
    .execute()
  const grantIds = grants.map((grant) => grant.id)
  const [grantRecords, grantViews] = grantIds.length
    ? await Promise.all([
        db.selectFrom('grant_records').selectAll().where('grant_id', 'in', grantIds).execute(),
        db
          .selectFrom('grant_views')
          .leftJoin('users as viewer', 'viewer.id', 'grant_views.viewer_user_id')
          .select([
            'grant_views.grant_id',
            'grant_views.record_kind',
            'grant_views.record_id',
            'grant_views.place',
            'grant_views.first_at',
            'grant_views.last_at',
            'viewer.nickname as viewer_nickname',
          ])
          .where('grant_views.grant_id', 'in', grantIds)
          .orderBy('grant_views.first_at')
          .execute(),
      ])
    : [[], []]
  await add(
    'grants/grants.json',
    json(
      grants.map((grant) => ({
        id: grant.id,
        purpose: grant.purpose,
        audience: grant.audience,
        grantee: grant.grantee_nickname,
        createdAt: grant.created_at,
        expiresAt: grant.expires_at,
        revokedAt: grant.revoked_at,
        maxViews: grant.max_views,
        records: grantRecords
          .filter((record) => record.grant_id === grant.id)
          .map((record) => ({ kind: record.kind, id: record.record_id, examId: record.exam_id })),
        views: grantViews
          .filter((view) => view.grant_id === grant.id)
          .map((view) => ({
            viewer: view.viewer_nickname ?? '链接访问者',
            recordKind: view.record_kind,
            recordId: view.record_id,
            place: view.place,
            firstAt: view.first_at,
            lastAt: view.last_at,
          })),
      })),
    ),
  )

  const messages = await db
    .selectFrom('messages')
    .select(['kind', 'title', 'body', 'read_at', 'created_at'])
    .where('user_id', '=', personId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  await add(
    'messages/messages.json',
    json(
      messages.map((m) => ({
        kind: m.kind,
        title: m.title,
        body: m.body,
        readAt: m.read_at,
        createdAt: m.created_at,
      })),
    ),
  )
  const favourites = await db
    .selectFrom('favourites')
    .select(['kind', 'target_id', 'created_at'])
    .where('user_id', '=', personId)
    .orderBy('created_at')
    .execute()
  await add(
    'favourites/favourites.json',
    json(favourites.map((f) => ({ kind: f.kind, id: f.target_id, createdAt: f.created_at }))),
  )
  const balance = await db
    .selectFrom('point_balances')
    .select('balance')
    .where('user_id', '=', personId)
    .executeTakeFirst()
  const entries = await db
    .selectFrom('point_entries')
    .select(['reason', 'delta', 'balance_after', 'created_at'])
    .where('user_id', '=', personId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  await add(
    'points/points.json',
    json({
      balance: balance?.balance ?? 0,
      entries: entries.map((e) => ({
        reason: e.reason,
        delta: e.delta,
        balanceAfter: e.balance_after,
        createdAt: e.created_at,
      })),
    }),
  )
  return {
    exams: exams.length,
    instances: instanceCount,
    reports: reportCount,
    consultations: consultations.length,
  }
}
